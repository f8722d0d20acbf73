// A chat's helper crashing (worker-handles.md §9, §11 case 11). In-process app behind
// the real agent socket, because "shows offline" is memory-only presence that no agent
// tool reports; the helpers are real processes and one is killed with SIGKILL.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RECONNECT_GRACE_MS } from '../../../src/main/mcp/bindings';
import { startInProcessApp, type InProcessApp } from './apps';
import { pause, register, send, until } from './tools';
import { placeRow } from '../../support/place';

let inproc: InProcessApp;

beforeAll(async () => {
  inproc = await startInProcessApp();
}, 60_000);

afterAll(() => inproc?.close());

describe('a helper killed with SIGKILL (in-process: presence lives in memory)', () => {
  it('case 11: W shows offline and is not ended; a new connection reconnects it as the same session and name', async () => {
    const [c1, c3, c4] = await Promise.all([inproc.connect(), inproc.connect(), inproc.connect()]);
    const room = await inproc.room(c1, 'case-11');
    const w = await register(c1, { room_id: room, registration_key: 'case-11-key-4f7a9c2e81d6b035', display_name: 'Thistle' });
    await register(c3, { worker_id: w.worker_id, room_id: room });
    const sessionId = w.agent_session.session_id;
    const { hub } = inproc.app;
    expect(await inproc.online(sessionId)).toBe(true);

    process.kill(c3.helperPid!, 'SIGKILL');
    await until(() => hub.bindings.binding(inproc.key(sessionId)) === undefined, 'the app saw C3\'s connection close');
    await pause(RECONNECT_GRACE_MS + 200);
    expect(await inproc.online(sessionId)).toBe(false);
    expect(await placeRow(inproc, 'SELECT ended_at FROM agent_sessions WHERE session_id = ?', sessionId)).toEqual({ ended_at: null });

    const back = await register(c4, { worker_id: w.worker_id, room_id: room });
    expect(back.agent_session).toMatchObject({ session_id: sessionId, display_name: 'Thistle', ended_at: null });
    expect(await inproc.online(sessionId)).toBe(true);
    await send(c4, { worker_id: w.worker_id, text: 'Thistle is back' });
  }, 30_000);
});
