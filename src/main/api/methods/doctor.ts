// app.doctor: the `letagents-desktop doctor` checks (src/cli/doctor, run in-process on the
// app's data folder), plus what only the running app can see: the keychain, GitHub
// sign-in and the agent configs.
import type { DoctorReport } from '../../../shared/model/app';
import type { CheckOutcome, DoctorCheck } from '../../../cli/doctor/check';
import { defaultChecks } from '../../../cli/doctor/checks';
import type { App } from '../../app';

const STATUS: Record<CheckOutcome['status'], DoctorReport['checks'][number]['status']> = { ok: 'ok', note: 'warn', problem: 'fail' };

function appChecks(app: App): DoctorCheck[] {
  return [
    {
      title: 'Keychain and GitHub sign-in',
      async run() {
        const status = await app.auth.status();
        if (!status.keychain.available) {
          return { status: 'problem', summary: `The OS keychain is unavailable (${status.keychain.reason}); sign-in is off.`, fix: status.keychain.fix };
        }
        if (status.signedIn) return { status: 'ok', summary: `Signed in as ${status.signedInAs}; the token is in the OS keychain.` };
        if (!status.clientConfigured) return { status: 'note', summary: 'Not signed in, and no GitHub OAuth client id is set.', fix: status.clientHelp ?? undefined };
        return { status: 'note', summary: 'Not signed in (optional: it only sets the owner name in agent labels).' };
      },
    },
    {
      title: 'Agent configs',
      async run() {
        const tools = await app.setup.status();
        const broken = tools.filter((t) => t.problem);
        if (broken.length > 0) return { status: 'problem', summary: broken.map((t) => t.problem).join(' ') };
        const connected = tools.filter((t) => t.configured);
        if (connected.length === 0) return { status: 'note', summary: 'No agent tool is connected yet.', fix: 'Open "Connect agents".' };
        const stale = connected.filter((t) => !t.entryMatches);
        const names = connected.map((t) => t.name).join(', ');
        if (stale.length > 0) {
          return { status: 'note', summary: `Connected: ${names}. ${stale.map((t) => t.name).join(', ')} run a different LetAgents command.`, fix: 'Connect them again to update the entry.' };
        }
        return { status: 'ok', summary: `Connected: ${names}.` };
      },
    },
  ];
}

const idOf = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '');

export async function runDoctorChecks(app: App): Promise<DoctorReport> {
  const context = { dataDir: app.core.dataDir };
  const checks = [...defaultChecks, ...appChecks(app)];
  const results = await Promise.all(
    checks.map(async (check) => {
      let outcome: CheckOutcome;
      try {
        outcome = await check.run(context);
      } catch (error) {
        outcome = { status: 'problem', summary: `The check itself failed: ${error instanceof Error ? error.message : String(error)}` };
      }
      return {
        id: idOf(check.title),
        title: check.title,
        status: STATUS[outcome.status],
        detail: outcome.fix ? `${outcome.summary} Fix: ${outcome.fix}` : outcome.summary,
      };
    }),
  );
  return { checks: results };
}
