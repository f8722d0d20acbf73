// app.doctor: the same checks as `letagents-desktop doctor`, with the running app's own
// services (keychain and sign-in, agent configs, teams).
import type { DoctorReport } from '../../../shared/model/app';
import { runChecks, type CheckOutcome } from '../../diagnostics/check';
import { folderChecks } from '../../diagnostics/folderChecks';
import { agentConfigCheck, signInCheck } from '../../diagnostics/serviceChecks';
import { teamChecks } from '../../diagnostics/teamChecks';
import { wakeCheck } from '../../diagnostics/wakeChecks';
import { allAgentSessions } from '../models/workers';
import type { AppParts } from '../appParts';

const STATUS: Record<CheckOutcome['status'], DoctorReport['checks'][number]['status']> = { ok: 'ok', note: 'warn', problem: 'fail' };

const idOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export async function runDoctorChecks(app: AppParts): Promise<DoctorReport> {
  const checks = [...folderChecks, signInCheck(() => app.auth.status()), agentConfigCheck(() => app.setup.status()), ...(await teamChecks(app.teams.registry)), wakeCheck(() => allAgentSessions(app))];
  const results = await runChecks(checks, { dataDir: app.core.dataDir });
  return {
    checks: results.map(({ title, outcome }) => ({
      id: idOf(title),
      title,
      status: STATUS[outcome.status],
      detail: outcome.fix ? `${outcome.summary} Fix: ${outcome.fix}` : outcome.summary,
    })),
  };
}
