// `letagents-desktop doctor`: runs the checks, explains each, exits 1 if any found a problem.
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../../main/paths';
import { runChecks, type CheckOutcome, type DoctorCheck } from '../../main/diagnostics/check';
import { folderChecks } from '../../main/diagnostics/folderChecks';
import { teamChecks } from '../../main/diagnostics/teamChecks';
import { openCliTeams } from '../team/cliTeams';
import { standaloneServiceChecks } from './standaloneChecks';

const MARK: Record<CheckOutcome['status'], string> = { ok: '[ok]', note: '[--]', problem: '[!!]' };

export async function runDoctor(argv: string[], checks?: readonly DoctorCheck[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string' } }, strict: true });
  const context = { dataDir: resolveDataDir(values['data-dir']) };
  process.stdout.write(`LetAgents doctor: data folder ${context.dataDir}\n`);
  // Teams are read from the data folder (read-only) and the keychain, without the app.
  const teams = checks ? null : openCliTeams(context.dataDir, 'read');
  let results;
  try {
    results = await runChecks(checks ?? [...folderChecks, ...standaloneServiceChecks(context.dataDir), ...(await teamChecks(teams!.registry))], context);
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
