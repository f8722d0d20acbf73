// Waits until an automation's run has ended (60 s at most: it may take a real CLI's turn) and returns it.
import type { AutomationRun } from '../../../src/shared/model/automations';
import { waitUntil, type ManagedApp } from '../agents/managedApp';

export async function runEnded(app: ManagedApp, automationId: string, number: number): Promise<AutomationRun> {
  let run: AutomationRun | undefined;
  await waitUntil(async () => {
    run = (await app.call('automations.runs', { automationId })).find((r) => r.number === number);
    return run !== undefined && run.status !== 'running';
  }, 60_000, `run ${number} to end`);
  return run!;
}
