// What `team list` and `team test` print: plain aligned text, URLs only without passwords.
import { schemaWords, tlsWords, wakeUpWords } from '../../main/diagnostics/teamChecks';
import type { TeamProbe } from '../../main/teams';

/** One row of `team list`: `from` says where the URL came from; `state` is the app's connection (null: no app). */
export interface TeamListRow {
  readonly name: string;
  readonly url: string;
  readonly from: string;
  readonly patterns: readonly string[];
  readonly state: string | null;
}

export function formatTeamList(teams: readonly TeamListRow[], defaultPlace: string): string {
  if (teams.length === 0) {
    return 'No teams: every room is on this computer. Add one with `letagents-desktop team add NAME --url-stdin`.\n';
  }
  const withState = teams.some((t) => t.state !== null);
  const rows = [
    ['NAME', 'URL', 'FROM', ...(withState ? ['STATE'] : []), 'REPO PATTERNS'],
    ...teams.map((t) => [
      t.name === defaultPlace ? `${t.name} (default)` : t.name,
      t.url,
      t.from,
      ...(withState ? [t.state ?? '-'] : []),
      t.patterns.length > 0 ? t.patterns.join(' ') : '-',
    ]),
  ];
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  const lines = rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]))).join('  ').trimEnd());
  const place = defaultPlace === 'local' ? 'this computer (local)' : `the team "${defaultPlace}"`;
  return `${lines.join('\n')}\nNew rooms go to ${place} unless a repo pattern decides.\n`;
}

export function formatProbe(probe: TeamProbe): string {
  if (!probe.reachable) return `  reachable: no (${probe.reason})`;
  return [
    `  reachable: yes${probe.serverVersion ? ` (PostgreSQL ${probe.serverVersion})` : ''}`,
    `  schema:    ${schemaWords(probe).words}`,
    `  latency:   ${probe.latencyMs} ms`,
    `  TLS:       ${tlsWords(probe).words.replace(/^TLS /, '')}`,
    `  wake-ups:  ${wakeUpWords(probe).words}`,
  ].join('\n');
}
