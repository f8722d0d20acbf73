// The teams of the app running for a data folder, asked over the agent socket (`teams.list`):
// its environment was read when it started, so a LETAGENTS_TEAM_URL_* set in this shell may be
// missing there, and one set only in its environment is missing here. `team list` and
// `doctor` show the app's view, and say where each team's URL came from.
import type { TeamsList, TeamSummary } from '../../shared/model/teams';
import type { RegisteredTeam } from '../../main/teams';
import { callApp, NoAppError } from '../appApi';

/** The running app's teams; null when no app runs for the folder (or it cannot say). */
export async function runningAppTeams(dataDir: string): Promise<TeamsList | null> {
  try {
    const answer = await callApp(dataDir, 'teams.list', {});
    return answer.ok ? (answer.value as TeamsList) : null;
  } catch (error) {
    if (error instanceof NoAppError) return null;
    throw error;
  }
}

/** "keychain", or "LETAGENTS_TEAM_URL_ACME in the app's environment". */
export function appTeamSource(team: Pick<TeamSummary, 'variable'>): string {
  return team.variable ? `${team.variable} in the app's environment` : 'keychain';
}

/** "online", "offline: reason", … in words. */
export function connectionWords(team: TeamSummary): string {
  const c = team.connection;
  if (c.status === 'idle') return 'not connected yet';
  if (c.status === 'offline') return `offline, reconnecting (${c.reason})`;
  if (c.status === 'unavailable') return `unavailable (${c.reason})`;
  return c.status;
}

/** Teams this shell's environment gives that the running app does not know (and the reverse is shown by FROM). */
export function shellOnlyTeams(shell: readonly RegisteredTeam[], app: TeamsList): RegisteredTeam[] {
  const known = new Set(app.teams.map((t) => t.name.toLowerCase()));
  return shell.filter((t) => t.variable !== null && !known.has(t.name.toLowerCase()));
}

export function shellOnlyNote(team: RegisteredTeam): string {
  return `${team.variable} is set in this shell, but the running app started without it: ` +
    `its team "${team.name}" is not in the app. Restart the app from this shell, or add the team with \`letagents-desktop team add\`.`;
}
