// Budget use of a managed agent, counted from its recorded turns in a real SQLite store:
// turns started in the last hour, tokens since midnight UTC, and a fresh window after Resume.
import { describe, expect, it } from 'vitest';
import { budgetUse } from '../../../src/main/agents/budgets';
import { ensureRoom } from '../../../src/main/domain/rooms/rooms';
import { findOrCreateWorker } from '../../../src/main/domain/sessions/workers';
import { finishTurnRow, getManagedAgentRow, insertManagedAgentRow, insertTurnRow, updateManagedAgentState } from '../../../src/main/store/managedAgentQueries';
import { TestStorage } from '../../support/storage';

async function agentWithTurns(turns: Array<{ at: string; tokens: number }>, budget: { turnsPerHour: number | null; dailyTokenCap: number | null }) {
  let now = '2026-06-01T00:00:00.000Z';
  const store = new TestStorage({ clock: () => new Date(now) });
  await store.write(async (tx) => {
    await ensureRoom(tx, { roomId: 'r', kind: 'named' });
    const { worker } = await findOrCreateWorker(tx, { registrationKey: 'k-7c1e9a4f2b6d8035', requestedName: 'Juniper', ownerLabel: 'Ada', ownerSlug: 'ada', ideLabel: 'Codex' });
    await insertManagedAgentRow(tx, {
      agent_id: 'a1', worker_id: worker.worker_id, room_id: 'r', place: 'local', name: 'Juniper', provider: 'codex', folder: '/w', instructions: '', model: null,
      permissions: 'read_only', turns_per_hour: budget.turnsPerHour, daily_token_cap: budget.dailyTokenCap,
    });
  });
  for (const turn of turns) {
    now = turn.at;
    await store.write(async (tx) => {
      const n = await insertTurnRow(tx, 'a1', { kind: 'message', text: 'x' });
      await finishTurnRow(tx, 'a1', n, { status: 'done', inputTokens: turn.tokens, outputTokens: 0, costUsd: null, error: null });
    });
  }
  return { store, row: async () => (await getManagedAgentRow(store.q, 'a1'))!, setNow: (at: string) => (now = at) };
}

describe('managed agent budgets', () => {
  it('counts turns of the last hour against turns per hour', async () => {
    const { store, row } = await agentWithTurns([{ at: '2026-06-01T09:00:00.000Z', tokens: 1 }, { at: '2026-06-01T10:30:00.000Z', tokens: 1 }], { turnsPerHour: 2, dailyTokenCap: null });
    expect(await budgetUse(store.q, await row(), new Date('2026-06-01T10:45:00.000Z'))).toMatchObject({ turnsLastHour: 1, reached: null });
    expect(await budgetUse(store.q, await row(), new Date('2026-06-01T09:59:00.000Z'))).toMatchObject({ turnsLastHour: 2, reached: 'turns_per_hour' });
  });

  it('counts tokens since midnight UTC against the daily cap', async () => {
    const { store, row } = await agentWithTurns(
      [{ at: '2026-06-01T23:00:00.000Z', tokens: 900 }, { at: '2026-06-02T01:00:00.000Z', tokens: 600 }, { at: '2026-06-02T05:00:00.000Z', tokens: 500 }],
      { turnsPerHour: null, dailyTokenCap: 1_000 },
    );
    expect(await budgetUse(store.q, await row(), new Date('2026-06-02T06:00:00.000Z'))).toMatchObject({ tokensToday: 1_100, reached: 'daily_tokens' });
    expect(await budgetUse(store.q, await row(), new Date('2026-06-03T00:00:01.000Z'))).toMatchObject({ tokensToday: 0, reached: null });
  });

  it('Resume starts a fresh window: turns and tokens before it no longer count', async () => {
    const { store, row, setNow } = await agentWithTurns([{ at: '2026-06-01T10:00:00.000Z', tokens: 5_000 }], { turnsPerHour: 1, dailyTokenCap: 1_000 });
    expect((await budgetUse(store.q, await row(), new Date('2026-06-01T10:10:00.000Z'))).reached).toBe('turns_per_hour');
    setNow('2026-06-01T10:20:00.000Z');
    await store.write((tx) => updateManagedAgentState(tx, 'a1', { budget_reset_at: tx.now }));
    expect(await budgetUse(store.q, await row(), new Date('2026-06-01T10:21:00.000Z'))).toMatchObject({ turnsLastHour: 0, tokensToday: 0, reached: null });
  });
});
