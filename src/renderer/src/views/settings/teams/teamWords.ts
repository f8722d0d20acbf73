// A team's connection and test result in plain words (Settings → Teams).
import type { TeamConnection, TeamTest } from '../../../../../shared/types';
import { formatTime } from '../../../lib/time';

export const CONNECTION_WORDS: Readonly<Record<TeamConnection['status'], string>> = {
  online: 'Connected',
  connecting: 'Connecting…',
  offline: 'Offline, reconnecting',
  idle: 'Not connected yet',
  unavailable: 'Unavailable',
};

/** The detail under the state: why it is offline or unavailable. */
export function connectionDetail(connection: TeamConnection): string | null {
  if (connection.status === 'offline') return `${connection.reason} (since ${formatTime(connection.since)}).`;
  if (connection.status === 'unavailable') return connection.reason;
  return null;
}

export function testWords(test: TeamTest): string {
  if (!test.reachable) return `Not reachable: ${test.reason ?? 'no answer'}.`;
  const found = test.schemaVersion ?? 0;
  const schema =
    found > test.appSchemaVersion
      ? `schema ${found} is newer than this app: update LetAgents to write to it`
      : found === 0
        ? 'not set up yet'
        : `schema ${found}`;
  const tls = !test.tls.on
    ? 'TLS off'
    : test.tls.verified
      ? test.tls.mode === 'verify-full' ? 'TLS on, certificate and host name verified' : 'TLS on, certificate verified'
      : 'TLS on, certificate not verified';
  return `Reachable${test.serverVersion ? ` (PostgreSQL ${test.serverVersion})` : ''} · ${schema} · ${test.latencyMs} ms · ${tls}.${wakeUpWords(test)}`;
}

/** Said only when it costs something: without a working LISTEN endpoint, changes are polled. */
function wakeUpWords(test: TeamTest): string {
  const w = test.wakeUps;
  if (!w || w.mode === 'listen') return '';
  return (
    ` Other machines' changes are polled every ${w.pollSeconds} s: LISTEN does not work on ${w.direct ? 'the listen endpoint' : 'this endpoint (a transaction-mode pooler?)'}, ` +
    `so wake-ups come up to ${w.pollSeconds} s late; each poll is one query (on a pooled connection that stays open) returning only the rooms changed since the last one. Give the direct endpoint: team add … --listen-url.`
  );
}
