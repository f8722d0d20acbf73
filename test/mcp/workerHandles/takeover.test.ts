// Resuming and taking over workers (worker-handles.md §11 cases 7–9, 15–17): a new
// connection reconnects a worker by its worker_id, the replaced connection is refused
// (W13, and W14 for a wait in flight), disconnect and reconnect keep the session.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HelperClient } from '../../support';
import { startServedApp, type ServedApp } from './apps';
import { call, count, hard, register, send, sessionRow, until, W1, W12, W13, W14, type Registration } from './tools';

let app: ServedApp;

beforeAll(async () => {
  app = await startServedApp();
}, 60_000);

afterAll(() => app?.close());

/** C1 holding workers W and V in a fresh room, and a second connection C2. */
async function twoWorkersOnC1(room: string) {
  const [c1, c2] = await Promise.all([app.connect(), app.connect()]);
  const roomId = await app.room(c1, room);
  const w = await register(c1, { room_id: roomId, registration_key: `${room}-w-4f7a9c2e81d6b035`, display_name: 'Willow' });
  const v = await register(c1, { room_id: roomId, registration_key: `${room}-v-4f7a9c2e81d6b035`, display_name: 'Vetch' });
  return { c1, c2, roomId, w, v };
}

const messagesIn = (room: string) => count(app, 'SELECT count(*) FROM messages WHERE room_id = ?', room);

describe('resuming a worker on a new connection', () => {
  let c1: HelperClient, c2: HelperClient, roomId: string, w: Registration, v: Registration;

  beforeAll(async () => {
    ({ c1, c2, roomId, w, v } = await twoWorkersOnC1('cases-7-8'));
  });

  it('case 7: a new connection must reconnect first (W12), then gets the same session id and name', async () => {
    const before = await messagesIn(roomId);
    expect(await call(c2, 'send_message', { worker_id: w.worker_id, text: 'not bound here yet' })).toEqual(hard(W12));
    expect(await messagesIn(roomId)).toBe(before);
    const resumed = await register(c2, { worker_id: w.worker_id, room_id: roomId });
    expect(resumed.worker_id).toBe(w.worker_id);
    expect(resumed.agent_session.session_id).toBe(w.agent_session.session_id);
    expect(resumed.agent_session.display_name).toBe('Willow');
    expect(resumed.agent_session.actor_label).toBe(w.agent_session.actor_label);
    await send(c2, { worker_id: w.worker_id, text: 'Willow, now on C2' });
  });

  it('case 8: the replaced connection gets W13 by worker_id and by agent_session_id; its other worker still works', async () => {
    const before = await messagesIn(roomId);
    expect(await call(c1, 'send_message', { worker_id: w.worker_id, text: 'stale' })).toEqual(hard(W13));
    expect(await call(c1, 'send_message', { agent_session_id: w.agent_session.session_id, text: 'stale' })).toEqual(hard(W13));
    expect(await call(c1, 'read_messages', { worker_id: w.worker_id })).toEqual(hard(W13));
    expect(await messagesIn(roomId)).toBe(before);
    await send(c1, { worker_id: v.worker_id, text: 'Vetch is fine' });
  });

  it('case 9: get_board and read_messages work with worker_id; worker_id with agent_session_id is W1', async () => {
    const board = await call(c2, 'get_board', { worker_id: w.worker_id });
    expect(board.isError).toBeUndefined();
    expect(board).toHaveProperty('tasks');
    const read = await call(c2, 'read_messages', { worker_id: w.worker_id });
    expect(read.room_id).toBe(roomId);
    expect(read.messages.map((m: { text: string }) => m.text)).toContain('Willow, now on C2');
    // read_messages takes no agent_session_id (mcp-tools.md §5.2); the tools that take both refuse both.
    const both = { worker_id: w.worker_id, agent_session_id: w.agent_session.session_id };
    expect(await call(c2, 'get_board', both)).toEqual(hard(W1));
    expect(await call(c2, 'wait_for_messages', { ...both, timeout: 1_000 })).toEqual(hard(W1));
    const before = await messagesIn(roomId);
    expect(await call(c2, 'send_message', { ...both, text: 'both' })).toEqual(hard(W1));
    expect(await messagesIn(roomId)).toBe(before);
  });
});

describe('the replaced connection and its legacy-form calls', () => {
  it('case 15: after a takeover, send and disconnect by agent_session_id fail on C1; C2 sends; C1\'s other worker works', async () => {
    const { c1, c2, roomId, w, v } = await twoWorkersOnC1('case-15');
    await register(c2, { worker_id: w.worker_id, room_id: roomId });
    const sessionId = w.agent_session.session_id;
    expect(await call(c1, 'send_message', { agent_session_id: sessionId, text: 'stale' })).toEqual(hard(W13));
    expect(await call(c1, 'disconnect_agent_session', { agent_session_id: sessionId })).toEqual(hard(W13));
    expect((await sessionRow(app, sessionId)).ended_at).toBeNull();
    await send(c2, { worker_id: w.worker_id, text: 'still Willow' });
    await send(c1, { worker_id: v.worker_id, text: 'Vetch too' });
  });

  it('case 16: disconnecting by worker_id then reconnecting keeps the name and session id and clears ended_at', async () => {
    const { c1, roomId, w } = await twoWorkersOnC1('case-16');
    const ended = await call(c1, 'disconnect_agent_session', { worker_id: w.worker_id });
    expect(ended).toMatchObject({ success: true, local: true, agent_session: { session_id: w.agent_session.session_id } });
    expect(ended.agent_session.ended_at).not.toBeNull();
    expect(await sessionRow(app, w.agent_session.session_id)).toMatchObject({ ended_by: 'disconnect' });
    expect(await call(c1, 'send_message', { worker_id: w.worker_id, text: 'ended' })).toEqual(hard(W12));
    const again = await call(c1, 'disconnect_agent_session', { worker_id: w.worker_id });
    expect(again).toMatchObject({ success: true, already_ended: true, agent_session: { session_id: w.agent_session.session_id } });

    const back = await register(c1, { worker_id: w.worker_id, room_id: roomId });
    expect(back.agent_session).toMatchObject({ session_id: w.agent_session.session_id, display_name: 'Willow', ended_at: null });
    expect(await sessionRow(app, w.agent_session.session_id)).toMatchObject({ ended_at: null, ended_by: null, display_name: 'Willow' });
    await send(c1, { worker_id: w.worker_id, text: 'back again' });
  });
});

describe('a wait in flight during a takeover', () => {
  it('case 17: C1\'s 60 s wait fails with W14 at once when C2 takes the worker over, and sees nothing posted after', async () => {
    const { c1, c2, roomId, w, v } = await twoWorkersOnC1('case-17');
    // A message routed to Willow before the cursor: its status says whether Willow listens now.
    const earlier = await send(c1, { worker_id: v.worker_id, text: '@Willow before the wait' });
    const first = await call(c1, 'wait_for_messages', { worker_id: w.worker_id, timeout: 1_000 });
    const cursor = first.last_observed_message_id;
    const waiting = call(c1, 'wait_for_messages', { worker_id: w.worker_id, after_message_id: cursor, timeout: 60_000 });
    const settled = { done: false };
    void waiting.then(() => (settled.done = true));
    // In flight once Willow shows listening (its waiter is in place: a takeover before that would
    // meet the call on its way in, W13, and a fixed pause cannot tell which on a busy team database).
    await until(async () => (await call(c1, 'get_message_status', { worker_id: v.worker_id, message_id: earlier, agent: 'Willow' })).recipients?.[0]?.reachability === 'listening', 'the wait in flight');
    expect(settled.done).toBe(false);

    await register(c2, { worker_id: w.worker_id, room_id: roomId });
    // "At once": well inside the 60 s timeout (and the 30 s test timeout); no timing bound asserted.
    expect(await waiting).toEqual(hard(W14));

    const late = await send(c1, { worker_id: v.worker_id, text: '@Willow posted after the takeover' });
    expect(late).toMatch(/^msg_\d+$/);
    expect(await call(c1, 'wait_for_messages', { worker_id: w.worker_id, after_message_id: cursor, timeout: 1_000 })).toEqual(hard(W13));
    const onC2 = await call(c2, 'wait_for_messages', { worker_id: w.worker_id, after_message_id: cursor, timeout: 1_000 });
    expect(onC2.messages.map((m: { id: string }) => m.id)).toContain(late);
  });
});
