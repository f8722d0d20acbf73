// Issue 34 item 2 for managed agents: four REAL Claude Code agents against a scripted fake model
// that answers a question only when no earlier answer is in its prompt. A person's @all in a room
// answering in turn gives one turn at a time (the turn log's times never overlap), each later
// prompt carries the earlier answer, one answer in all, and the later agents pass (receipts say
// so). A paused agent counts as away (paused before the @all, or in the middle of its own turn:
// the round moves on at once) and a turn nobody ends runs out (a short turn wait), so the round
// goes on. With "Reply to @all: all at once" every agent starts at once, as before.
import { afterEach, describe, expect, it } from 'vitest';
import type { TurnView } from '../../../src/shared/types';
import { cleanupSpawned } from '../../support';
import { answerUnlessAnswered, gate, say } from '../../support/fakeModels';
import { waitUntil } from '../../support/waitUntil';
import { overlappingTurns } from '../../support/turnOverlap';
import { TURN_WAIT_MS } from '../../../src/main/domain/activation/broadcastTurns';
import { startManagedApp, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'four-agents-all';
const NAMES = ['Cedar', 'Birch', 'Aspen', 'Rowan'] as const;

async function addAgents(a: ManagedApp): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const name of NAMES) ids.set(name, (await a.call('agents.add', { provider: 'claude_code', folder: a.folder, roomId: ROOM, name, permissions: 'read_only' })).agentId);
  return ids;
}

/** Each agent's turn `number`, once all have ended. */
async function roundOfTurns(a: ManagedApp, ids: Map<string, string>, number: number): Promise<Map<string, TurnView>> {
  const out = new Map<string, TurnView>();
  for (const name of NAMES) out.set(name, await a.turnEnded(ids.get(name)!, number, 120_000));
  return out;
}

async function agentMessagesAfter(a: ManagedApp, number: number): Promise<Array<{ number: number; text: string }>> {
  const { messages } = await a.call('messages.timeline', { roomId: ROOM, after: number });
  return messages.filter((m) => m.source === 'agent').map((m) => ({ number: m.number, text: m.text }));
}

/** Each agent's state in the @all's round, as its receipts show it. */
async function turnStates(a: ManagedApp, number: number): Promise<Record<string, string>> {
  const turns = (await a.call('delivery.receipts', { roomId: ROOM, numbers: [number] })).receipts[0].turns;
  return Object.fromEntries((turns?.order ?? []).map((t) => [t.name, t.state]));
}

const roundOver = (states: Record<string, string>) => Object.keys(states).length > 0 && Object.values(states).every((s) => s !== 'turn' && s !== 'waiting');

describe('a person @all for four managed Claude Code agents (fake model)', () => {
  it('in turn: turns never overlap, each later prompt carries the earlier answer, one answer, the others pass', async () => {
    // Four turns could run at once: only the turn rule keeps them apart.
    app = await startManagedApp({ provider: 'claude_code', managedTurns: { maxConcurrent: 4 } });
    await app.room(ROOM);
    const ids = await addAgents(app);
    const answer = 'I can take the flaky login test.';
    for (const name of NAMES) app.model.script.push(name, answerUnlessAnswered(answer));

    const asked = await app.call('messages.send', { roomId: ROOM, text: '@all who can look at the flaky login test?' });
    const turns = await roundOfTurns(app, ids, 1);
    expect([...turns.values()].map((t) => t.status)).toEqual(['done', 'done', 'done', 'done']);
    expect(overlappingTurns([...turns.values()])).toBe(0);
    const answers = await agentMessagesAfter(app, asked.number);
    expect(answers.map((m) => m.text)).toEqual([answer]);

    const byStart = [...turns.entries()].sort((x, y) => x[1].startedAt.localeCompare(y[1].startedAt)).map(([name]) => name);
    const [first, ...later] = byStart;
    expect(app.model.script.requestsFor(first)[0].prompts.join('\n')).not.toContain(answer);
    for (const name of later) {
      const prompt = app.model.script.requestsFor(name)[0].prompts.join('\n');
      expect(prompt).toContain(`earlier answer msg_${answers[0].number} from ${first}: "${answer}"`);
      expect(prompt).toContain('Saying nothing is fine when you have nothing to add');
    }
    const { receipts } = await app.call('delivery.receipts', { roomId: ROOM, numbers: [asked.number] });
    expect(receipts[0].noReply).toHaveLength(later.length);
    expect(receipts[0].noReply).toEqual(expect.arrayContaining(later.map((name) => ({ name, why: 'read it and passed (said nothing)' }))));
  });

  it('all at once: every agent starts at once, with no earlier answer to read (as before)', async () => {
    app = await startManagedApp({ provider: 'claude_code', managedTurns: { maxConcurrent: 4 } });
    await app.room(ROOM);
    await app.call('rooms.setReplyToAll', { roomId: ROOM, mode: 'all_at_once' });
    const ids = await addAgents(app);
    const answer = 'I can take the flaky login test.';
    for (const name of NAMES) app.model.script.push(name, answerUnlessAnswered(answer));

    const asked = await app.call('messages.send', { roomId: ROOM, text: '@all who can look at the flaky login test?' });
    const turns = [...(await roundOfTurns(app, ids, 1)).values()];
    const firstEnd = Math.min(...turns.map((t) => Date.parse(t.endedAt!)));
    expect(turns.every((t) => Date.parse(t.startedAt) < firstEnd)).toBe(true);
    expect((await agentMessagesAfter(app, asked.number)).map((m) => m.text)).toEqual([answer, answer, answer, answer]);
  });

  it('a paused agent is skipped as away: the round does not wait for it', async () => {
    // The default 90 s turn wait: were Rowan not away, the round would wait for it past this test's wait.
    app = await startManagedApp({ provider: 'claude_code', managedTurns: { maxConcurrent: 4 } });
    await app.room(ROOM);
    const ids = await addAgents(app);
    await app.call('agents.pause', { agentId: ids.get('Rowan')! });
    const answer = 'I can take the flaky login test.';
    for (const name of ['Cedar', 'Birch', 'Aspen']) app.model.script.push(name, answerUnlessAnswered(answer));

    const asked = await app.call('messages.send', { roomId: ROOM, text: '@all who can look at the flaky login test?' });
    await waitUntil(async () => roundOver(await turnStates(app!, asked.number)), 60_000, 'every turn of the round ended');
    const ended = await turnStates(app, asked.number);
    expect(ended.Rowan).toBe('away');
    expect(Object.values(ended).sort()).toEqual(['answered', 'away', 'passed', 'passed']);
    expect(await app.turns(ids.get('Rowan')!)).toEqual([]);
    expect((await agentMessagesAfter(app, asked.number)).map((m) => m.text)).toEqual([answer]);
  });

  it('a turn nobody ends runs out (a short turn wait) and the next agent takes its turn', async () => {
    app = await startManagedApp({ provider: 'claude_code', managedTurns: { maxConcurrent: 4 }, turnWaitMs: 10_000 });
    await app.room(ROOM);
    const ids = await addAgents(app);
    // Aspen's model is slow to answer (held until the end); the others answer if nobody has. The
    // turn wait is short for a test but long enough for a Claude Code turn on a loaded machine.
    const answer = 'I can take the flaky login test.';
    const slow = gate(say('Still reading the logs.'));
    app.model.script.push('Aspen', slow.step);
    for (const name of ['Cedar', 'Birch', 'Rowan']) app.model.script.push(name, answerUnlessAnswered(answer));

    const asked = await app.call('messages.send', { roomId: ROOM, text: '@all who can look at the flaky login test?' });
    await waitUntil(async () => roundOver(await turnStates(app!, asked.number)), 60_000, 'every turn of the round ended');
    const ended = await turnStates(app, asked.number);
    expect(ended.Aspen).toBe('timed_out');
    expect(Object.values(ended).sort()).toEqual(['answered', 'passed', 'passed', 'timed_out']);
    // Aspen's turn was handed (its model was asked) while it ran out.
    expect(app.model.script.requestsFor('Aspen')).toHaveLength(1);
    slow.open();
    await app.turnEnded(ids.get('Aspen')!, 1);
    expect((await agentMessagesAfter(app, asked.number)).map((m) => m.text)).toEqual([answer]);
  }, 90_000);

  it('pausing the agent whose turn it is moves the round on at once; it starts no other turn for that @all, and the receipts say it went away', async () => {
    // The product's 90 s turn wait: only the pause can move the round on within half of it.
    app = await startManagedApp({ provider: 'claude_code', managedTurns: { maxConcurrent: 4 } });
    await app.room(ROOM);
    const ids = await addAgents(app);
    // Every agent's model waits at a gate; the order is known once the @all is posted, and every
    // gate but the first agent's opens then, so the first agent's turn runs until the test says.
    const answer = 'I can take the flaky login test.';
    const gates = new Map<string, ReturnType<typeof gate>>(NAMES.map((name) => [name, gate(answerUnlessAnswered(answer))]));
    for (const [name, held] of gates) app.model.script.push(name, held.step);

    const asked = await app.call('messages.send', { roomId: ROOM, text: '@all who can look at the flaky login test?' });
    const order = (await app.call('delivery.receipts', { roomId: ROOM, numbers: [asked.number] })).receipts[0].turns!.order.map((t) => t.name);
    const [first, next] = order;
    for (const name of order.slice(1)) gates.get(name)!.open();
    await waitUntil(() => app!.model.script.requestsFor(first).length > 0, 60_000, `${first}'s turn asked its model`);
    expect(app.model.script.requestsFor(next)).toHaveLength(0);

    await app.call('agents.pause', { agentId: ids.get(first)! });
    expect((await turnStates(app, asked.number))[first]).toBe('away');
    // At once: the next agent's turn starts long before the first's 90 s would have run out.
    await waitUntil(() => app!.model.script.requestsFor(next).length > 0, TURN_WAIT_MS / 2, `${next}'s turn asked its model`);
    await waitUntil(async () => roundOver(await turnStates(app!, asked.number)), 60_000, 'every turn of the round ended');
    const ended = await turnStates(app, asked.number);
    expect(ended).toMatchObject({ [first]: 'away', [next]: 'answered' });
    expect(Object.values(ended).sort()).toEqual(['answered', 'away', 'passed', 'passed']);
    // The paused agent has the one turn it was in when paused: the @all started no other.
    expect((await app.turns(ids.get(first)!)).map((t) => t.number)).toEqual([1]);
    expect((await agentMessagesAfter(app, asked.number)).map((m) => m.text)).toEqual([answer]);

    // Its held turn ends (it answers, not knowing the others did): it still went away in the round.
    gates.get(first)!.open();
    await app.turnEnded(ids.get(first)!, 1);
    expect((await turnStates(app, asked.number))[first]).toBe('away');
  }, 150_000);
});
