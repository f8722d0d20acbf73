// The small badge naming an agent's tool ("Claude Code", "Codex", …).
export function IdeBadge({ ide }: { ide: string | null }) {
  if (!ide) return null;
  return <span className="badge badge-ide">{ide}</span>;
}
