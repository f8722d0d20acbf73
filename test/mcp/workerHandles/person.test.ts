// A person ending an agent's session, and a connection closing (worker-handles.md §9;
// §11 cases 28 and 29). These run the app in-process, behind the real agent socket with
// real helpers, because there is no UI bridge yet: the test acts as the person through
// app.hub, and reads presence from app.hub.isOnline.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONNECT_GRACE_MS } from '../../../src/main/mcp/bindings';
import { addTask } from '../../../src/main/domain/tasks/createTask';
import type { PersonActor } from '../../../src/main/domain/actor';
import { startInProcessApp, type InProcessApp } from './apps';
import { call, hard, pause, register, send, until, W12, W13, W14, W15 } from './tools';
import { placeRow, TEST_PLACE } from '../../support/place';

const ada: PersonActor = { kind: 'person', label: 'Ada' };

let inproc: InProcessApp;

beforeAll(async () => {
  inproc = await startInProcessApp();
}, 60_000);

afterAll(() => inproc?.close());

const row = async (sessionId: string) =>
  (await placeRow<{ ended_at: string | null; ended_by: string | null }>(inproc, 'SELECT ended_at, ended_by FROM agent_sessions WHERE session_id = ?', sessionId))!;

describe('a person disconnects the agent in the app (in-process: no UI bridge yet)', () => {
  it('case 28: W\'s next send is W15, the session shows ended_by person, and reconnecting revives it with its task_7 work', async () => {
    const chat = await inproc.connect();
    const room = await inproc.room(chat, 'case-28');
    const w = await register(chat, { room_id: room, registration_key: 'case-28-key-4f7a9c2e81d6b035', display_name: 'Juniper' });
    const sessionId = w.agent_session.session_id;
    // The person adds seven tasks in the app; W takes the seventh.
    for (let i = 1; i <= 7; i++) {
      const task = await (await inproc.app.places.get(TEST_PLACE)).write((tx) => addTask(tx, room, ada, { title: `Chore ${i}` }));
      expect(task.id).toBe(`task_${i}`);
    }
    const claimed = await call(chat, 'claim_task', { worker_id: w.worker_id, task_id: 'task_7' });
    expect(claimed.task, JSON.stringify(claimed)).toMatchObject({ id: 'task_7', status: 'assigned' });

    const start = await call(chat, 'wait_for_messages', { worker_id: w.worker_id, timeout: 1_000 });
    const waiting = call(chat, 'wait_for_messages', { worker_id: w.worker_id, after_message_id: start.last_observed_message_id, timeout: 60_000 });
    await until(() => inproc.app.hub.delivery.reachability.state(inproc.key(sessionId)) === 'listening', 'the wait to be in flight');
    await inproc.app.hub.endSessionByPerson(TEST_PLACE, sessionId, 'disconnect', ada);
    expect(await waiting).toEqual(hard(W14));

    const refused = await call(chat, 'send_message', { worker_id: w.worker_id, text: 'still here?' });
    expect(refused).toEqual(hard(W15));
    expect(refused.text).toContain('register_agent_session');
    expect(await row(sessionId)).toMatchObject({ ended_by: 'person', ended_at: expect.any(String) });

    const back = await register(chat, { worker_id: w.worker_id, room_id: room });
    expect(back.agent_session).toMatchObject({ session_id: sessionId, display_name: 'Juniper', ended_at: null });
    expect(back.resumed_work).toBe(
      'An earlier session of this agent held these leases, and this session holds them now: task_7 (work). ' +
        'Carry on with that work, or release what is not yours to do.',
    );
    expect(await row(sessionId)).toEqual({ ended_at: null, ended_by: null });
    await send(chat, { worker_id: w.worker_id, text: 'back on task_7' });
  });
});

describe('who hears W15 after a person ends the session (in-process: no UI bridge yet)', () => {
  it('only the connection that held it until then gets W15; one replaced earlier still gets W13, a stranger W12', async () => {
    const [c1, c2, c3] = await Promise.all([inproc.connect(), inproc.connect(), inproc.connect()]);
    const room = await inproc.room(c1, 'case-28-holders');
    const w = await register(c1, { room_id: room, registration_key: 'case-28-holders-key' });
    await register(c2, { worker_id: w.worker_id, room_id: room });
    await inproc.app.hub.endSessionByPerson(TEST_PLACE, w.agent_session.session_id, 'disconnect', ada);
    expect(await call(c2, 'send_message', { worker_id: w.worker_id, text: 'x' })).toEqual(hard(W15));
    expect(await call(c1, 'send_message', { worker_id: w.worker_id, text: 'x' })).toEqual(hard(W13));
    expect(await call(c3, 'send_message', { worker_id: w.worker_id, text: 'x' })).toEqual(hard(W12));
  });
});

describe('a connection closes (in-process: presence lives in memory)', () => {
  it('case 29: the worker\'s session is not ended and shows offline after the 10 s grace; the connection\'s legacy session ends', async () => {
    expect(RECONNECT_GRACE_MS).toBe(10_000);
    const chat = await inproc.connect();
    const room = await inproc.room(chat, 'case-29');
    const w = await register(chat, { room_id: room, registration_key: 'case-29-key-4f7a9c2e81d6b035', display_name: 'Sage' });
    const legacy = await call(chat, 'register_agent_session', { room_id: room, display_name: 'Old Style' });
    expect(legacy).toMatchObject({ success: true, local: true, agent_session_id: expect.stringMatching(/^local_/) });
    const sessionId = w.agent_session.session_id;
    expect(await inproc.online(sessionId)).toBe(true);

    await chat.close();
    await until(async () => (await row(legacy.agent_session_id)).ended_at !== null, 'the closed connection\'s legacy session ended');
    expect(await row(sessionId)).toEqual({ ended_at: null, ended_by: null });
    // Within the grace the worker still shows online; after it, offline — and still not ended.
    expect(await inproc.online(sessionId)).toBe(true);
    await pause(RECONNECT_GRACE_MS + 200);
    expect(await inproc.online(sessionId)).toBe(false);
    expect(await row(sessionId)).toEqual({ ended_at: null, ended_by: null });
  }, 30_000);
});
