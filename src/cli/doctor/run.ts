// `letagents-desktop doctor`: runs the checks, explains each, exits 1 if any found a problem.
import { parseArgs } from 'node:util';
import { resolveDataDir } from '../../main/paths';
import type { CheckOutcome, DoctorCheck } from './check';
import { defaultChecks } from './checks';

const MARK: Record<CheckOutcome['status'], string> = { ok: '[ok]', note: '[--]', problem: '[!!]' };

export async function runDoctor(argv: string[], checks: readonly DoctorCheck[] = defaultChecks): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { 'data-dir': { type: 'string' } }, strict: true });
  const context = { dataDir: resolveDataDir(values['data-dir']) };
  process.stdout.write(`LetAgents doctor: data folder ${context.dataDir}\n`);
  let problems = 0;
  for (const check of checks) {
    let outcome: CheckOutcome;
    try {
      outcome = await check.run(context);
    } catch (error) {
      outcome = { status: 'problem', summary: `The check itself failed: ${error instanceof Error ? error.message : String(error)}` };
    }
    if (outcome.status === 'problem') problems++;
    process.stdout.write(`${MARK[outcome.status]} ${check.title}: ${outcome.summary}\n`);
    if (outcome.fix) process.stdout.write(`     fix: ${outcome.fix}\n`);
  }
  process.stdout.write(problems === 0 ? 'No problems found.\n' : `${problems} problem${problems === 1 ? '' : 's'} found.\n`);
  return problems === 0 ? 0 : 1;
}
