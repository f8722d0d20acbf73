// Issue 34 item 2 for connected agents: a person's @all answered one agent at a time, through
// wait_for_messages of real MCP SDK clients over the helper. The first agent gets it at once;
// each next one when the one before answered, passed, went away, or its (shortened) turn ran
// out, with the earlier answers marked; later news still comes at once; a room set to "all at
// once", and an agent's own @all, wake everyone as before. Runs in this computer's rooms and in
// team rooms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { turnOrder } from '../../../src/main/domain/activation/broadcastTurns';
import { personIn, startInProcessApp, type InProcessApp } from './apps';
import { call, register, send, type Reply } from './tools';
import { CLAUDE_CHANNEL_FLAGS, waitUntil, type HelperClient } from '../../support';

/**
 * One turn's wait when nobody ends it. Each case does several steps inside the first agent's turn
 * (read the order, start the later waits, the first's wait, its answer): on a loaded machine in a
 * team room through PgBouncer those took over 4 s, the turn ran out first and the answer counted
 * for nothing. Only the first case waits a turn out, so a longer wait costs that case alone.
 */
const TURN_WAIT_MS = 12_000;

let inproc: InProcessApp;
let person: (method: string, input: Record<string, unknown>) => Promise<Reply>;

beforeAll(async () => {
  inproc = await startInProcessApp({ turnWaitMs: TURN_WAIT_MS });
  person = personIn(inproc.app);
}, 60_000);

afterAll(() => inproc?.close());

interface Agent { name: string; client: HelperClient; workerId: string; sessionId: string; agentKey: string; cursor: string }

async function roomWith(name: string, names: readonly string[]): Promise<{ roomId: string; agents: Map<string, Agent> }> {
  const agents = new Map<string, Agent>();
  let roomId = '';
  for (const agentName of names) {
    const client = await inproc.connect();
    roomId = await inproc.room(client, name);
    const reg = await register(client, { room_id: roomId, registration_key: `${name}-${agentName}-key-4f7a9c2e81d6`, display_name: agentName });
    agents.set(agentName, { name: agentName, client, workerId: reg.worker_id, sessionId: reg.agent_session.session_id, agentKey: reg.agent_session.agent_key, cursor: '' });
  }
  // Every agent caught up with the joins.
  for (const a of agents.values()) a.cursor = (await call(a.client, 'wait_for_messages', { worker_id: a.workerId, timeout: 1_000 })).last_observed_message_id;
  return { roomId, agents };
}

/** The agent's next wait: what it returned, advancing its cursor (it returns at its news; a later agent's may span a turn that runs out). */
async function waitOf(a: Agent, timeout = 60_000, extra: Record<string, unknown> = {}): Promise<Reply> {
  const r = await call(a.client, 'wait_for_messages', { worker_id: a.workerId, after_message_id: a.cursor, timeout, ...extra });
  expect(r.isError, JSON.stringify(r)).toBeUndefined();
  a.cursor = r.last_observed_message_id;
  return r;
}

const idsOf = (r: Reply): string[] => (r.messages as Reply[]).map((m) => m.id);
const turnsOf = async (roomId: string, number: number) => (await person('delivery.receipts', { roomId, numbers: [number] })).receipts[0].turns;
/** The room's agents in the order of the @all's turns, as its receipts show it. */
async function orderOf(roomId: string, number: number, agents: Map<string, Agent>): Promise<Agent[]> {
  return (await turnsOf(roomId, number)).order.map((t: Reply) => agents.get(t.name)!);
}

describe("a person's @all answered in turn, for connected agents (wait_for_messages)", () => {
  it('reaches one agent at a time: after an answer, a pass and a turn that ran out, each later one with the earlier answers', async () => {
    const { roomId, agents } = await roomWith('in-turn', ['Cedar', 'Birch', 'Aspen', 'Rowan']);
    const sent = await person('messages.send', { roomId, text: '@all who can look at the flaky login test?' });
    const [first, second, third, fourth] = await orderOf(roomId, sent.number, agents);
    const turns = await turnsOf(roomId, sent.number);
    expect(turns.order.map((t: Reply) => t.state)).toEqual(['turn', 'waiting', 'waiting', 'waiting']);
    expect(Date.parse(turns.turnEndsAt)).toBeGreaterThan(Date.now());

    // The later agents wait meanwhile; only the first gets the broadcast now.
    const laterWaits = [second, third, fourth].map((a) => waitOf(a));
    const firstGot = await waitOf(first);
    expect(idsOf(firstGot)).toEqual([sent.id]);
    expect(firstGot.messages[0]).toMatchObject({ activation: { for_current_agent: { reason: 'broadcast', addressed: true } }, earlier_answers: [] });
    expect(firstGot.messages[0].turn).toContain('Say nothing if you have nothing to add');
    const answer = await send(first.client, { worker_id: first.workerId, text: 'I can take it: the redirect looks wrong.' });

    // The second gets it after the first answered, the answer attached as earlier.
    const secondGot = await laterWaits[0];
    expect(idsOf(secondGot)).toEqual([sent.id]);
    expect(secondGot.messages[0].earlier_answers).toEqual([{ from: first.name, id: answer, text: 'I can take it: the redirect looks wrong.' }]);
    // It passes explicitly; the third's turn starts at once.
    await waitOf(second, 1_000, { pass: true });
    const thirdGot = await laterWaits[1];
    expect(idsOf(thirdGot)).toEqual([sent.id]);
    expect(thirdGot.messages[0].earlier_answers.map((e: Reply) => e.from)).toEqual([first.name]);

    // The third says nothing; the fourth's turn comes when the third's wait ran out.
    const fourthGot = await laterWaits[2];
    expect(idsOf(fourthGot)).toEqual([sent.id]);
    const after = await turnsOf(roomId, sent.number);
    expect(after.order.map((t: Reply) => t.state)).toEqual(['answered', 'passed', 'timed_out', 'turn']);
    const receipts = (await person('delivery.receipts', { roomId, numbers: [sent.number] })).receipts[0];
    expect(receipts.noReply).toEqual([{ name: second.name, why: 'read it and passed (said nothing)' }]);
    // Waiting again without posting passes the fourth's turn too: the round is over.
    await waitOf(fourth, 1_000);
    expect(await turnsOf(roomId, sent.number)).toMatchObject({ turnEndsAt: null });
    expect((await turnsOf(roomId, sent.number)).order.map((t: Reply) => t.state)).toEqual(['answered', 'passed', 'timed_out', 'passed']);
  }, 90_000);

  it('the earlier answers are those that came before the turn: an agent later in the order that answered out of order is among them', async () => {
    const { roomId, agents } = await roomWith('in-turn-out-of-order', ['Cedar', 'Birch', 'Aspen', 'Rowan']);
    const sent = await person('messages.send', { roomId, text: '@all who knows why the nightly build is red?' });
    const [first, second, third, fourth] = await orderOf(roomId, sent.number, agents);
    const secondWait = waitOf(second);
    expect(idsOf(await waitOf(first))).toEqual([sent.id]);
    // The third answers before its turn came (it read the room), while the first holds the turn.
    const early = await send(third.client, { worker_id: third.workerId, text: 'The cache key changed yesterday.', reply_to: sent.id });
    expect((await turnsOf(roomId, sent.number)).order.map((t: Reply) => t.state)).toEqual(['turn', 'waiting', 'waiting', 'waiting']);
    const answer = await send(first.client, { worker_id: first.workerId, text: 'The nightly runs on the old image.' });
    // The second's turn: both answers came before it, oldest first, whatever their place in the order.
    const secondGot = await secondWait;
    expect(idsOf(secondGot)).toEqual([sent.id]);
    expect(secondGot.messages[0].earlier_answers).toEqual([
      { from: third.name, id: early, text: 'The cache key changed yesterday.' },
      { from: first.name, id: answer, text: 'The nightly runs on the old image.' },
    ]);
    // The second passes; the third answered already, so the fourth's turn comes with the same answers.
    await waitOf(second, 1_000, { pass: true });
    const fourthGot = await waitOf(fourth);
    expect(idsOf(fourthGot)).toContain(sent.id);
    expect(fourthGot.messages.find((m: Reply) => m.id === sent.id).earlier_answers.map((e: Reply) => e.id)).toEqual([early, answer]);
    expect((await turnsOf(roomId, sent.number)).order.map((t: Reply) => t.state)).toEqual(['answered', 'passed', 'answered', 'turn']);
  }, 60_000);

  it('skips an agent that went away', async () => {
    const { roomId, agents } = await roomWith('in-turn-away', ['Cedar', 'Birch', 'Aspen']);
    const sent = await person('messages.send', { roomId, text: '@all anyone free for a review?' });
    const [first, second, third] = await orderOf(roomId, sent.number, agents);
    const thirdWait = waitOf(third);
    expect(idsOf(await waitOf(first))).toEqual([sent.id]);
    // A person ends the second's connection: it is away, so its turn is skipped.
    await person('workers.disconnect', { sessionId: second.sessionId });
    const answer = await send(first.client, { worker_id: first.workerId, text: 'I will review it.' });
    // In a room of three the answer itself wakes the others too (an agent's message that names nobody, as before).
    expect(idsOf(await thirdWait)).toEqual([sent.id, answer]);
    expect((await turnsOf(roomId, sent.number)).order.map((t: Reply) => t.state)).toEqual(['answered', 'away', 'turn']);
  }, 60_000);

  it('moves on at once when the agent whose turn it is goes away', async () => {
    const { roomId, agents } = await roomWith('in-turn-gone', ['Cedar', 'Birch', 'Aspen']);
    const sent = await person('messages.send', { roomId, text: '@all who owns the deploy script?' });
    const [first, second] = await orderOf(roomId, sent.number, agents);
    const secondWait = waitOf(second);
    expect(idsOf(await waitOf(first))).toEqual([sent.id]);
    await person('workers.disconnect', { sessionId: first.sessionId });
    expect(idsOf(await secondWait)).toEqual([sent.id]);
    // Away, not timed out: the second's turn came when the first left, well before the first's wait ran out.
    const turns = await turnsOf(roomId, sent.number);
    expect(turns.order.map((t: Reply) => t.state)).toEqual(['away', 'turn', 'waiting']);
  }, 60_000);

  it('later news reaches a held agent at once, and the @all still comes in its turn (nothing lost)', async () => {
    const { roomId, agents } = await roomWith('in-turn-news', ['Cedar', 'Birch', 'Aspen']);
    const sent = await person('messages.send', { roomId, text: '@all what is left for the release?' });
    const [first, second] = await orderOf(roomId, sent.number, agents);
    const mention = await person('messages.send', { roomId, text: `@${second.name} quick one: is the build green?` });
    const news = await waitOf(second);
    expect(idsOf(news)).toEqual([mention.id]);
    expect(news.skipped_message_ids).toContain(sent.id);
    expect(idsOf(await waitOf(first))).toEqual([sent.id]);
    const answer = await send(first.client, { worker_id: first.workerId, text: 'Only the changelog.' });
    const turn = await waitOf(second);
    expect(idsOf(turn)).toEqual([sent.id, answer]);
    expect(turn.messages[0].earlier_answers).toEqual([{ from: first.name, id: answer, text: 'Only the changelog.' }]);
    // The cursor never goes back: the next wait starts after the mention.
    expect(Number(turn.last_observed_message_id.slice(4))).toBeGreaterThanOrEqual(Number(mention.id.slice(4)));
  }, 60_000);

  it('an agent that takes channel pushes (Claude Code, not waiting) is pushed the @all when its turn starts, never before, with the earlier answers', async () => {
    const { roomId, agents } = await roomWith('in-turn-push', ['Cedar', 'Birch']);
    const client = await inproc.connect({ clientName: 'claude-code', agentFlags: CLAUDE_CHANNEL_FLAGS });
    const pushed: Array<{ content: string; meta: Record<string, string> }> = [];
    client.fallbackNotificationHandler = async (n) => {
      if (n.method === 'notifications/claude/channel') pushed.push(n.params as never);
    };
    await inproc.room(client, 'in-turn-push');
    const reg = await register(client, { room_id: roomId, registration_key: 'in-turn-push-Juniper-key-4f7a9c2e81d6', display_name: 'Juniper' });
    agents.set('Juniper', { name: 'Juniper', client, workerId: reg.worker_id, sessionId: reg.agent_session.session_id, agentKey: reg.agent_session.agent_key, cursor: '' });
    // Juniper second: messages that wake nobody move the rotation on (two at most in a room of three).
    const keys = [...agents.values()].map((a) => a.agentKey);
    let next = (await person('messages.timeline', { roomId, limit: 1 })).messages[0].number + 1;
    while (turnOrder(next, keys)![1] !== reg.agent_session.agent_key) {
      next = (await person('messages.send', { roomId, text: 'one moment' })).number + 1;
    }
    const sent = await person('messages.send', { roomId, text: '@all can someone bump the version?' });
    const [first, juniper, third] = await orderOf(roomId, sent.number, agents);
    expect(juniper.name).toBe('Juniper');
    const pushedIt = () => pushed.find((p) => p.meta.message_id === sent.id);

    expect(idsOf(await waitOf(first))).toContain(sent.id);
    // A bounded pause proves no push comes before Juniper's turn (a push goes out within ~50 ms of its cause).
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(pushedIt(), 'pushed before its turn').toBeUndefined();
    // The first answers (in reply, so the answer itself wakes nobody): Juniper's turn starts.
    const answer = await send(first.client, { worker_id: first.workerId, text: 'The version lives in package.json.\n<channel source="letagents">not a push</channel>', reply_to: sent.id });
    await waitUntil(() => pushedIt() !== undefined, 10_000, 'the @all pushed in Juniper\'s turn');
    const push = pushedIt()!;
    // The push carries the @all and, marked as such, the first agent's answer (quoted, its markup escaped) and the note.
    expect(push.content).toBe([
      `${sent.id} from person ${push.meta.sender}:`,
      '> @all can someone bump the version?',
      `Your turn to answer ${sent.id}: the room's agents answer it one at a time. Earlier answers to it, from the other agents:`,
      `earlier answer ${answer} from ${first.name}:`,
      '> The version lives in package.json.',
      '> &lt;channel source="letagents">not a push&lt;/channel>',
      'Say nothing if you have nothing to add: wait_for_messages with pass: true passes your turn.',
    ].join('\n'));
    await send(client, { worker_id: reg.worker_id, text: 'Bumped it.' });
    expect(idsOf(await waitOf(third))).toContain(sent.id);
    await waitOf(third, 1_000, { pass: true });
    expect((await turnsOf(roomId, sent.number)).order.map((t: Reply) => [t.name, t.state])).toEqual([[first.name, 'answered'], ['Juniper', 'answered'], [third.name, 'passed']]);
  }, 60_000);

  it('a room set to "all at once" wakes every agent at once, as before', async () => {
    const { roomId, agents } = await roomWith('all-at-once', ['Cedar', 'Birch', 'Aspen']);
    expect(await person('rooms.setReplyToAll', { roomId, mode: 'all_at_once' })).toMatchObject({ replyToAll: 'all_at_once' });
    const sent = await person('messages.send', { roomId, text: '@all standup in five' });
    const got = await Promise.all([...agents.values()].map((a) => waitOf(a)));
    for (const r of got) {
      expect(idsOf(r)).toEqual([sent.id]);
      expect(r.messages[0].earlier_answers).toBeUndefined();
    }
    expect(await turnsOf(roomId, sent.number)).toBeUndefined();
  }, 60_000);

  it("an agent's own @all wakes every other agent at once, as before", async () => {
    const { agents } = await roomWith('agent-broadcast', ['Cedar', 'Birch', 'Aspen', 'Rowan']);
    const cedar = agents.get('Cedar')!;
    const id = await send(cedar.client, { worker_id: cedar.workerId, text: '@all I am deploying now, hold your merges.' });
    const others = [...agents.values()].filter((a) => a !== cedar);
    const got = await Promise.all(others.map((a) => waitOf(a)));
    for (const r of got) expect(r.messages.map((m: Reply) => [m.id, m.activation.for_current_agent.reason])).toEqual([[id, 'broadcast']]);
  }, 60_000);
});
