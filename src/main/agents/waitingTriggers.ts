// What activated a managed agent while it took no turns (paused, held by a budget, or its
// CLI unable to run), kept with the agent (it survives a restart) and handed to its next
// turn on Resume or Run now: mentions while paused are never dropped. Up to the number of
// messages a turn's prompt quotes (the newest; the agent reads older ones itself).
import { getManagedAgentRow, updateManagedAgentState, type ManagedAgentRow } from '../store/managedAgentQueries';
import type { Storage } from '../store/port';
import { MAX_QUOTED } from './prompt';
import type { Trigger } from './types';

type KeptTrigger = Exclude<Trigger, { kind: 'run_now' }>;

function parse(json: string | null): KeptTrigger[] {
  if (!json) return [];
  try {
    const value = JSON.parse(json) as unknown;
    return Array.isArray(value) ? (value as KeptTrigger[]) : [];
  } catch {
    return [];
  }
}

/** Keeps `triggers` (not Run now) for the agent's next turn; a message already kept is kept once. */
export async function keepTriggers(store: Storage, agentId: string, triggers: readonly Trigger[]): Promise<void> {
  const kept = triggers.filter((t): t is KeptTrigger => t.kind !== 'run_now');
  if (kept.length === 0) return;
  await store.write(async (tx) => {
    const row = await getManagedAgentRow(tx, agentId);
    if (!row) return;
    const all = parse(row.waiting_json);
    const known = new Set(all.map(keyOf));
    for (const t of kept) if (!known.has(keyOf(t))) all.push(t);
    const messages = all.filter((t) => t.kind === 'message');
    const drop = new Set<KeptTrigger>(messages.slice(0, Math.max(0, messages.length - MAX_QUOTED)));
    await updateManagedAgentState(tx, agentId, { waiting_json: JSON.stringify(all.filter((t) => !drop.has(t))) });
    tx.emit({ type: 'agent.changed', agentId });
  });
}

/** Takes the kept triggers (they become a turn now). */
export async function takeWaiting(store: Storage, agentId: string): Promise<Trigger[]> {
  return store.write(async (tx) => {
    const row = await getManagedAgentRow(tx, agentId);
    const all = parse(row?.waiting_json ?? null);
    if (all.length > 0) await updateManagedAgentState(tx, agentId, { waiting_json: null });
    return all;
  });
}

/** How many kept messages wait for the agent's next turn ("3 messages waiting"). */
export function waitingMessages(row: Pick<ManagedAgentRow, 'waiting_json'>): number {
  return parse(row.waiting_json).filter((t) => t.kind === 'message').length;
}

/** Whether an automation's run waits among the kept triggers (for a usage limit's reset, a rate limit's retry). */
export function waitsForRun(row: Pick<ManagedAgentRow, 'waiting_json'>, automationId: string, run: number): boolean {
  return parse(row.waiting_json).some((t) => t.kind === 'automation' && t.automationId === automationId && t.run === run);
}

const keyOf = (t: KeptTrigger) => (t.kind === 'automation' ? `${t.kind}\n${t.automationId}\n${t.run}` : `${t.kind}\n${t.roomId}\n${t.number}`);
