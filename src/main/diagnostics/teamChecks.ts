// Doctor checks of the teams: for each one whether its database can be reached, at which
// schema (and whether it is newer than this app), the round trip, TLS, and where its URL
// comes from; plus LETAGENTS_TEAM_URL_* variables that name no valid team. Read-only.
import { isLoopback } from '../store/postgres/teamUrl';
import type { RegisteredTeam, TeamProbe } from '../teams';
import type { TeamRegistry } from '../teams/teamRegistry';
import { teamUrlEnvName } from '../teams/teamNames';
import type { CheckOutcome, DoctorCheck } from './check';

/** One check per team (built when the doctor runs: the teams can change between runs). */
export async function teamChecks(registry: TeamRegistry): Promise<DoctorCheck[]> {
  let teams: RegisteredTeam[];
  try {
    teams = await registry.list();
  } catch (error) {
    // Only when the database itself cannot be opened, which the Database check reports.
    return [{ title: 'Teams', run: () => ({ status: 'note', summary: `The stored teams cannot be read: ${(error as Error).message}` }) }];
  }
  const problems = await registry.environmentProblems();
  const checks: DoctorCheck[] = teams.map((team) => ({ title: `Team "${team.name}"`, run: () => teamOutcome(registry, team) }));
  if (teams.length === 0) {
    checks.push({ title: 'Teams', run: () => ({ status: 'ok', summary: 'None: every room is on this computer. `letagents-desktop team add` shares rooms through PostgreSQL.' }) });
  }
  if (problems.length > 0) {
    checks.push({
      title: 'Team environment variables',
      run: () => ({
        status: 'problem',
        summary: problems.map((p) => `${p.variable} is ignored: ${p.problem}`).join(' '),
        fix: `Name the variable after the team: ${teamUrlEnvName('my-team')} for the team my-team.`,
      }),
    });
  }
  return checks;
}

async function teamOutcome(registry: TeamRegistry, team: RegisteredTeam): Promise<CheckOutcome> {
  const source = team.variable ? `URL from ${team.variable}` : 'URL from the keychain';
  let probe: TeamProbe;
  try {
    probe = await registry.test(team.name);
  } catch (error) {
    return { status: 'problem', summary: `${(error as Error).message} (${source}: ${team.shownUrl})` };
  }
  if (!probe.reachable) {
    return {
      status: 'problem',
      summary: `Cannot be reached: ${probe.reason}. ${source}: ${team.shownUrl}.`,
      fix: `Check that the database server runs and this machine can reach it; \`letagents-desktop team test ${team.name}\` tries again.`,
    };
  }
  const schema = schemaWords(probe);
  const tls = tlsWords(probe);
  const wakeUps = wakeUpWords(probe);
  const summary = `Reachable, ${schema.words}, ${probe.latencyMs} ms, ${tls.words}; ${wakeUps.words}; ${source}: ${team.shownUrl}.`;
  if (schema.newer) return { status: 'problem', summary, fix: 'Update LetAgents on this machine: another app set the team database up with a newer version.' };
  if (tls.plaintextRemote) return { status: 'note', summary, fix: 'Ask for TLS in the URL (sslmode=verify-full) unless the network between is trusted.' };
  if (wakeUps.polling) return { status: 'note', summary, fix: `Give the direct endpoint for LISTEN: \`letagents-desktop team add ${team.name} --url-stdin --listen-url URL\`.` };
  return { status: schema.behind ? 'note' : 'ok', summary };
}

/** How other machines' changes reach this app, and what the fallback costs. */
export function wakeUpWords(probe: TeamProbe): { words: string; polling: boolean } {
  const w = probe.wakeUps;
  if (!w) return { words: 'wake-ups unknown', polling: false };
  if (w.mode === 'listen') return { words: `other machines' changes arrive at once (LISTEN${w.direct ? ' on the direct endpoint, queries through the pooler' : ''})`, polling: false };
  return {
    words:
      `LISTEN does not deliver on ${w.direct ? 'the listen endpoint' : 'this endpoint (a transaction-mode pooler?)'}: other machines' changes are polled every ${w.pollSeconds} s ` +
      `instead (wake-ups up to ${w.pollSeconds} s late; each poll is one query on a pooled connection that stays open, returning only the rooms changed since the last poll: none when the team is quiet)`,
    polling: true,
  };
}

export function schemaWords(probe: TeamProbe): { words: string; newer: boolean; behind: boolean } {
  const found = probe.schemaVersion ?? 0;
  const known = probe.appSchemaVersion;
  if (found > known) return { words: `schema ${found} is newer than this app (it knows ${known}): update the app`, newer: true, behind: false };
  if (found === 0) return { words: 'not set up yet (the app sets it up when it first connects)', newer: false, behind: true };
  if (found < known) return { words: `schema ${found} (the app upgrades it to ${known} when it connects)`, newer: false, behind: true };
  return { words: `schema ${found}`, newer: false, behind: false };
}

export function tlsWords(probe: TeamProbe): { words: string; plaintextRemote: boolean } {
  const { on, mode, verified } = probe.tls;
  if (on && verified) return { words: mode === 'verify-full' ? 'TLS on, certificate and host name verified' : 'TLS on, certificate verified (host name not checked)', plaintextRemote: false };
  if (on) return { words: 'TLS on, certificate not verified (sslmode=require)', plaintextRemote: false };
  if (isLoopback(probe.host)) return { words: 'TLS off (this computer)', plaintextRemote: false };
  return { words: 'TLS off: the password and every message cross the network unencrypted (plaintext allowed)', plaintextRemote: true };
}
