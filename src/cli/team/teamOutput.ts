// What `team list` and `team test` print: plain aligned text, URLs only without passwords.
import { schemaWords, tlsWords, wakeUpWords } from '../../main/diagnostics/teamChecks';
import type { RegisteredTeam, TeamProbe } from '../../main/teams';

export function formatTeamList(teams: readonly RegisteredTeam[], defaultPlace: string): string {
  if (teams.length === 0) {
    return 'No teams: every room is on this computer. Add one with `letagents-desktop team add NAME --url-stdin`.\n';
  }
  const rows = [
    ['NAME', 'URL', 'FROM', 'REPO PATTERNS'],
    ...teams.map((t) => [
      t.name === defaultPlace ? `${t.name} (default)` : t.name,
      t.shownUrl,
      t.variable ?? 'keychain',
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
