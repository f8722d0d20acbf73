// Fenced writes (worker-handles.md §8, §11 cases 10 and 18): another program holds the
// database's write lock, so a replaced connection's write is still queued when a new
// connection takes the worker over; when the lock goes, that write must store nothing.
// (In a team database the lock is PostgreSQL's: the write waits on it inside its transaction.)
// The app runs in this process (behind the real agent socket, every connection a real helper)
// so a test can see the moment a call's write is queued: a fixed pause could not tell that on a
// loaded machine, and a takeover that overtakes the call meets it as W13 instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HelperClient } from '../../support';
import { TEST_PLACE } from '../../support/place';
import { startInProcessApp, type InProcessApp } from './apps';
import { call, count, hard, holdWriteLock, messageNumber, register, send, sessionRow, until, W13, W14 } from './tools';

let app: InProcessApp;

beforeAll(async () => {
  app = await startInProcessApp();
}, 60_000);

afterAll(() => app?.close());

/** True once `client` has been replaced for the worker: the swap happened in the app's memory. */
const replaced = (client: HelperClient, workerId: string) => async () =>
  (await call(client, 'read_messages', { worker_id: workerId, limit: 1 })).text === W13;

/**
 * Waits until a call's write has passed its per-call checks and is queued behind the outside
 * lock: the app's writes to the rooms are idle before `act`, then busy with it.
 */
async function queuedBehindLock<T>(act: () => Promise<T>, what: string): Promise<{ acting: Promise<T> }> {
  const storage = await app.app.places.get(TEST_PLACE);
  await until(() => !storage.writing, 'no write of the app under way before the call');
  const acting = act();
  await until(() => storage.writing, what);
  return { acting };
}

// The app retries a locked database for 5 s, so each lock below is held well under that:
// long enough for the queued write to be waiting and for the takeover to swap.
describe('a write queued behind an outside lock during a takeover', () => {
  it('case 18: the replaced connection\'s queued send fails with W14, is not stored, and uses up no number', async () => {
    const [c1, c2] = await Promise.all([app.connect(), app.connect()]);
    const room = await app.room(c1, 'case-18');
    const w = await register(c1, { room_id: room, registration_key: 'case-18-w-4f7a9c2e81d6b035', display_name: 'Sorrel' });
    const lastBefore = messageNumber(await send(c1, { worker_id: w.worker_id, text: 'before the lock' }));

    const lock = await holdWriteLock(app);
    let sending: Promise<unknown>;
    try {
      ({ acting: sending } = await queuedBehindLock(() => call(c1, 'send_message', { worker_id: w.worker_id, text: 'queued behind the lock' }), 'the send waits for the database'));
      const takeover = register(c2, { worker_id: w.worker_id, room_id: room });
      await until(replaced(c1, w.worker_id), 'C2 swapped the binding');
      await lock.commit();
      expect((await takeover).agent_session.session_id).toBe(w.agent_session.session_id);
    } finally {
      await lock.rollback();
    }
    expect(await sending).toEqual(hard(W14));
    expect(await count(app, "SELECT count(*) FROM messages WHERE text = 'queued behind the lock'")).toBe(0);
    const next = await send(c2, { worker_id: w.worker_id, text: 'after the takeover' });
    expect(messageNumber(next)).toBe(lastBefore + 1);
  });
});

describe('a disconnect racing a takeover', () => {
  it('case 10: the disconnect queued behind the lock fails with W14, ended_at stays null, and the new holder sends', async () => {
    const [c2, c3] = await Promise.all([app.connect(), app.connect()]);
    const room = await app.room(c2, 'case-10');
    const w = await register(c2, { room_id: room, registration_key: 'case-10-w-4f7a9c2e81d6b035', display_name: 'Tansy' });

    const lock = await holdWriteLock(app);
    let disconnecting: Promise<unknown>;
    let reconnecting: ReturnType<typeof register>;
    try {
      ({ acting: disconnecting } = await queuedBehindLock(() => call(c2, 'disconnect_agent_session', { worker_id: w.worker_id }), 'the disconnect found C2 holding W and waits for the database'));
      reconnecting = register(c3, { worker_id: w.worker_id, room_id: room });
      await until(replaced(c2, w.worker_id), 'C3 swapped the binding');
    } finally {
      await lock.rollback();
    }
    expect(await disconnecting).toEqual(hard(W14));
    const reconnected = await reconnecting;
    expect(reconnected.agent_session).toMatchObject({ session_id: w.agent_session.session_id, display_name: 'Tansy', ended_at: null });
    expect(await sessionRow(app, w.agent_session.session_id)).toMatchObject({ ended_at: null, ended_by: null });
    await send(c3, { worker_id: w.worker_id, text: 'Tansy carries on from C3' });
    expect((await sessionRow(app, w.agent_session.session_id)).ended_at).toBeNull();
  });
});
