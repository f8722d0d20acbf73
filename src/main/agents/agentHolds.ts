// Why a managed agent takes no turns until the person resumes it, recorded with the agent and
// raised once in "Needs you" (an `agent_budget` item, the app's kind for "an agent waits for
// Resume"; the item of a CLI that cannot run carries its cause and shows as "Can't run"):
// its budget is used up, or its CLI failed for a reason only the person can fix.
import { workerSessionId } from '../domain/identity/agentKeys';
import { raiseAlert } from '../domain/knowledge/alerts';
import { getSession } from '../domain/sessions/sessions';
import { updateManagedAgentState, type HeldReason, type ManagedAgentRow } from '../store/managedAgentQueries';
import type { Storage } from '../store/port';
import { heldReasonText } from './budgets';
import type { CantRun } from './cantRun';
import { providerName } from './providers';

export type Hold = { readonly budget: HeldReason } | { readonly cantRun: CantRun };

export async function recordHold(store: Storage, row: ManagedAgentRow, hold: Hold): Promise<void> {
  const provider = providerName(row.provider);
  await store.write(async (tx) => {
    const session = await getSession(tx, workerSessionId(row.worker_id, row.room_id));
    if (session) {
      const name = session.display_name;
      const item =
        'budget' in hold
          ? {
              subject: `${row.agent_id}:${tx.now}`,
              title: `${name} stopped taking turns: budget reached`,
              body:
                `${name} (${provider}) takes no new turns because ${heldReasonText(row, hold.budget)}. ` +
                'Messages for it stay in the room. Resume it to give it a fresh budget, or remove it on the Agents page.',
            }
          : {
              subject: `${row.agent_id}:cant_run:${tx.now}`,
              title: `${name} can't run: ${hold.cantRun.reason}`,
              body:
                `${name}'s turn failed because ${hold.cantRun.reason}` +
                (hold.cantRun.detail ? ` (${provider} said: "${hold.cantRun.detail}")` : '') +
                `. It takes no turns until you resume it; messages for it wait. ${hold.cantRun.fix}`,
              detail: { cantRun: hold.cantRun.cause },
            };
      await raiseAlert(tx, { roomId: row.room_id, kind: 'agent_budget', sessionId: session.session_id, ...item });
    }
    await updateManagedAgentState(
      tx,
      row.agent_id,
      'budget' in hold ? { held_reason: hold.budget, held_request_number: null } : { cant_run_json: JSON.stringify(hold.cantRun) },
    );
    tx.emit({ type: 'agent.changed', agentId: row.agent_id });
  });
}
