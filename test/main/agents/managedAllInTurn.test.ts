// Issue 34 item 2 for managed agents: four REAL Claude Code agents against a scripted fake model
// that answers a question only when no earlier answer is in its prompt. A person's @all in a room
// answering in turn gives one turn at a time (the turn log's times never overlap), each later
// prompt carries the earlier answer, one answer in all, and the later agents pass (receipts say
// so). A paused agent counts as away (paused before the @all, or in the middle of its own turn:
// the round moves on at once) and a turn nobody ends runs out (a short turn wait), so the round
// goes on. The earlier answers a prompt quotes are those that came before the turn, an answer
// posted out of order (by a connected agent, before its own turn) among them. With "Reply to
// @all: all at once" every agent starts at once, as before.
import { afterEach, describe, expect, it } from 'vitest';
import { TURN_WAIT_MS, turnOrder } from '../../../src/main/domain/activation/broadcastTurns';
import type { TurnView } from '../../../src/shared/types';
import { cleanupSpawned, connectHelper, tempDir } from '../../support';
import { answerUnlessAnswered, callTool, gate, identityIn, say } from '../../support/fakeModels';
import { register, send } from '../../mcp/workerHandles/tools';
import { waitUntil } from '../../support/waitUntil';
import { overlappingTurns } from '../../support/turnOverlap';
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

  it('in turn: the prompt quotes the answers that came before the turn, one a connected agent later in the order posted out of order', async () => {
    app = await startManagedApp({ provider: 'claude_code', managedTurns: { maxConcurrent: 4 } });
    await app.room(ROOM);
    const ids = new Map<string, string>();
    for (const name of ['Cedar', 'Birch']) ids.set(name, (await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name, permissions: 'read_only' })).agentId);
    const juniper = await connectHelper(app.host.app.core.dataDir, { cwd: tempDir() });
    try {
      const reg = await register(juniper, { room_id: ROOM, registration_key: 'all-out-of-order-Juniper-key-4f7a9c2e81d6', display_name: 'Juniper' });
      const juniperKey: string = reg.agent_session.agent_key;
      const managedKeys = new Map((await app.call('agents.list', {})).map((a) => [a.agentKey!, a.name]));
      // Juniper last in the order: messages that wake nobody move the rotation on (two at most in a room of three).
      const keys = [...managedKeys.keys(), juniperKey];
      let next = (await app.call('messages.timeline', { roomId: ROOM, limit: 1 })).messages[0].number + 1;
      while (turnOrder(next, keys)!.at(-1) !== juniperKey) next = (await app.call('messages.send', { roomId: ROOM, text: 'one moment' })).number + 1;
      const [first, second] = turnOrder(next, keys)!.slice(0, 2).map((k) => managedKeys.get(k)!);
      // The first agent answers in reply to the @all (in a room of three a plain answer would wake the others too).
      const firstAnswer = 'The login test waits on a fixed sleep.';
      const slow = gate(callTool('register_agent_session', (r) => identityIn(r)));
      const replyTo = `msg_${next}`;
      app.model.script.push(first, slow.step, callTool('send_message', (r) => ({ worker_id: identityIn(r).worker_id, text: firstAnswer, reply_to: replyTo })), say('Answered in the room.'));
      app.model.script.push(second, answerUnlessAnswered(firstAnswer));

      const asked = await app.call('messages.send', { roomId: ROOM, text: '@all who can look at the flaky login test?' });
      expect(asked.number).toBe(next);
      // While the first agent's turn runs, Juniper (third) answers before its own turn came, in reply (it wakes nobody).
      await waitUntil(() => app!.model.script.requestsFor(first).length > 0, 60_000, `${first}'s turn asked its model`);
      const early = await send(juniper, { worker_id: reg.worker_id, text: 'It is the session cookie expiring.', reply_to: `msg_${asked.number}` });
      slow.open();
      await app.turnEnded(ids.get(second)!, 1, 120_000);
      const answers = await agentMessagesAfter(app, asked.number);
      expect(answers.map((m) => m.text)).toEqual(['It is the session cookie expiring.', firstAnswer]);
      expect(early).toBe(`msg_${answers[0].number}`);
      // The second agent's prompt quotes both, oldest first: Juniper's came before its turn though Juniper is after it in the order.
      const prompt = app.model.script.requestsFor(second)[0].prompts.join('\n');
      const juniperLine = prompt.indexOf(`earlier answer msg_${answers[0].number} from Juniper: "It is the session cookie expiring."`);
      const firstLine = prompt.indexOf(`earlier answer msg_${answers[1].number} from ${first}: "${firstAnswer}"`);
      expect(juniperLine, prompt).toBeGreaterThan(-1);
      expect(firstLine, prompt).toBeGreaterThan(juniperLine);
      await waitUntil(async () => roundOver(await turnStates(app!, asked.number)), 30_000, 'every turn of the round ended');
      expect(await turnStates(app, asked.number)).toEqual({ [first]: 'answered', [second]: 'passed', Juniper: 'answered' });
    } finally {
      await juniper.close();
    }
  }, 180_000);

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
    app = await startManagedApp({ provider: 'claude_code', managedTurns: { maxConcurrent: 4 }, turnWaitMs: 20_000 });
    await app.room(ROOM);
    const ids = await addAgents(app);
    // Aspen's model is slow to answer (held until the end); the others answer if nobody has. The
    // turn wait is short for a test but long enough for a Claude Code turn on a loaded machine
    // (the case took 25.7 s in a loaded full run, 10 of them Aspen's: about 5 s a turn, half the old 10 s).
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
