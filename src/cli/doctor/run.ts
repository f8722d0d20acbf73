// `letagents-desktop doctor`: runs the checks, explains each, exits 1 if any found a problem.
import { resolveDataDir } from '../../main/paths';
import { runChecks, type CheckOutcome, type DoctorCheck } from '../../main/diagnostics/check';
import { folderChecks } from '../../main/diagnostics/folderChecks';
import { teamChecks } from '../../main/diagnostics/teamChecks';
import { openCliTeams } from '../team/cliTeams';
import type { TeamRegistry } from '../../main/teams/teamRegistry';
import { standaloneServiceChecks } from './standaloneChecks';
import { parseCommandArgs } from '../usage';
import { appTeamSource, connectionWords, runningAppTeams, shellOnlyNote, shellOnlyTeams } from '../team/appTeams';
import { wakeCheck } from '../../main/diagnostics/wakeChecks';
import type { AgentSession } from '../../shared/model/workers';
import { callApp, NoAppError } from '../appApi';

/**
 * The team checks above probe from this shell; a running app may know other teams (its
 * environment was read when it started). Said when it runs, with where each URL came from.
 */
async function appTeamsCheck(dataDir: string, registry: TeamRegistry): Promise<DoctorCheck[]> {
  const app = await runningAppTeams(dataDir);
  if (!app) return [];
  const missing = shellOnlyTeams(await registry.list(), app);
  const teams = app.teams.map((t) => `"${t.name}" ${connectionWords(t)} (URL from ${appTeamSource(t) === 'keychain' ? 'the keychain' : appTeamSource(t)})`);
  return [{
    title: 'Teams of the running app',
    run: () => ({
      status: missing.length > 0 ? 'note' : 'ok',
      summary: teams.length > 0 ? `${teams.join('; ')}.` : 'None: every room is on this computer.',
      ...(missing.length > 0 ? { fix: missing.map(shellOnlyNote).join(' ') } : {}),
    }),
  }];
}

/** Connected agents a mention cannot wake: the running app's roster says (none when no app runs). */
async function appWakeCheck(dataDir: string): Promise<DoctorCheck[]> {
  let answer;
  try {
    answer = await callApp(dataDir, 'workers.list', {});
  } catch (error) {
    if (error instanceof NoAppError) return [];
    throw error;
  }
  if (!answer.ok) return [];
  const roster = answer.value as AgentSession[];
  return [wakeCheck(async () => roster)];
}

const MARK: Record<CheckOutcome['status'], string> = { ok: '[ok]', note: '[--]', problem: '[!!]' };

export async function runDoctor(argv: string[], checks?: readonly DoctorCheck[]): Promise<number> {
  const { values } = parseCommandArgs(argv, { 'data-dir': { type: 'string' } });
  const context = { dataDir: resolveDataDir(values['data-dir']) };
  process.stdout.write(`LetAgents doctor: data folder ${context.dataDir}\n`);
  // Teams are read from the data folder (read-only) and the keychain, without the app.
  const teams = checks ? null : openCliTeams(context.dataDir, 'read');
  let results;
  try {
    results = await runChecks(
      checks ?? [...folderChecks, ...standaloneServiceChecks(context.dataDir), ...(await teamChecks(teams!.registry)), ...(await appTeamsCheck(context.dataDir, teams!.registry)), ...(await appWakeCheck(context.dataDir))],
      context,
    );
  } finally {
    await teams?.close();
  }
  let problems = 0;
  for (const { title, outcome } of results) {
    if (outcome.status === 'problem') problems++;
    process.stdout.write(`${MARK[outcome.status]} ${title}: ${outcome.summary}\n`);
    if (outcome.fix) process.stdout.write(`     fix: ${outcome.fix}\n`);
  }
  process.stdout.write(problems === 0 ? 'No problems found.\n' : `${problems} problem${problems === 1 ? '' : 's'} found.\n`);
  return problems === 0 ? 0 : 1;
}
