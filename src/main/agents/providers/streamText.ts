// Small helpers the provider stream parsers share: safe JSON lines, tool names as people
// read them, and short previews for the activity log.

const PREVIEW_CHARS = 600;

/** The parsed object on a line of JSON output; null for anything else (banners, blank lines). */
export function jsonLine(line: string): Record<string, unknown> | null {
  const trimmed = line.trim();
  if (!trimmed.startsWith('{')) return null;
  try {
    const value = JSON.parse(trimmed) as unknown;
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** Cut to a readable length for the activity log. */
export function preview(text: string, max = PREVIEW_CHARS): string {
  const flat = text.trim();
  return flat.length <= max ? flat : `${flat.slice(0, max)}…`;
}

/** A tool input as one short line of JSON. */
export function previewInput(input: unknown): string {
  if (input === undefined || input === null) return '';
  try {
    return preview(typeof input === 'string' ? input : JSON.stringify(input));
  } catch {
    return '';
  }
}

/** The text parts of an MCP-style content list (or a plain string). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part) => (part && typeof part === 'object' && typeof (part as { text?: unknown }).text === 'string' ? (part as { text: string }).text : ''))
    .filter((t) => t !== '')
    .join('\n');
}

export const num = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
export const str = (value: unknown): string | null => (typeof value === 'string' ? value : null);
