// Creating workers (worker-handles.md §11 cases 1–5, 12–14, 31): argument checks, the
// tool surface, idempotent keys, distinct identities, lost responses, ambiguous rooms,
// name clashes and implicit sessions — real helpers against a real `serve`.
import { spawn } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectedSubstitute } from '../../support/substituteName';
import { cliBin, repoRoot, track, type HelperClient } from '../../support';
import { startServedApp, type ServedApp } from './apps';
import { placeRow } from '../../support/place';
import { call, count, hard, register, send, sha256hex, until, W12, W16, W3, W7, workerSessionId } from './tools';

let app: ServedApp;
let c1: HelperClient;
let c2: HelperClient;

beforeAll(async () => {
  app = await startServedApp();
  [c1, c2] = await Promise.all([app.connect(), app.connect()]);
}, 60_000);

afterAll(() => app?.close());

const workerCount = () => count(app, 'SELECT count(*) FROM workers');

describe('creating a worker with a registration_key', () => {
  it('case 1: refuses a registration_key without room_id (W3, hard) and stores nothing', async () => {
    await app.room(c1, 'case-1');
    const before = await workerCount();
    const reply = await call(c1, 'register_agent_session', { registration_key: 'case-1-key-4f7a9c2e81d6b035', display_name: 'Alder' });
    expect(reply).toEqual(hard(W3));
    expect(await workerCount()).toBe(before);
  });

  it('case 2: every tool with room_id offers an optional worker_id; register_agent_session means resume by it', async () => {
    const { tools } = await c1.listTools();
    const roomTools = tools.filter((t) => 'room_id' in (t.inputSchema.properties ?? {}));
    expect(roomTools.length).toBeGreaterThan(20);
    for (const tool of roomTools) {
      const props = tool.inputSchema.properties as Record<string, { type?: string; description?: string }>;
      expect(props.worker_id, tool.name).toBeDefined();
      expect(props.worker_id.type, tool.name).toBe('string');
      expect(tool.inputSchema.required ?? [], tool.name).not.toContain('worker_id');
    }
    // The room tools share one meaning of worker_id, stated once in the server instructions.
    expect(c1.getInstructions()).toMatch(/Keep the returned worker_id for this chat/);
    const registerTool = tools.find((t) => t.name === 'register_agent_session')!;
    const workerId = (registerTool.inputSchema.properties as Record<string, { description: string }>).worker_id;
    expect(workerId.description).toMatch(/resume/i);
  });

  it('case 3: two concurrent registrations with one key on one connection make one worker and one session', async () => {
    const room = await app.room(c1, 'case-3');
    const args = { room_id: room, registration_key: 'case-3-key-4f7a9c2e81d6b035', display_name: 'Birch' };
    const [a, b] = await Promise.all([register(c1, args), register(c1, args)]);
    expect(a.worker_id).toBe(b.worker_id);
    expect(a.agent_session.session_id).toBe(b.agent_session.session_id);
    expect(a.agent_session.session_id).toBe(workerSessionId(a.worker_id, room));
    expect(await count(app, 'SELECT count(*) FROM workers WHERE registration_key_hash = ?', sha256hex('case-3-key-4f7a9c2e81d6b035'))).toBe(1);
    expect(await count(app, 'SELECT count(*) FROM agent_sessions WHERE worker_id = ?', a.worker_id)).toBe(1);
  });

  it('case 4: a different key gives a different worker_id and a different agent_key', async () => {
    const room = await app.room(c1, 'case-4');
    const a = await register(c1, { room_id: room, registration_key: 'case-4-key-a-4f7a9c2e81d6b035' });
    const b = await register(c1, { room_id: room, registration_key: 'case-4-key-b-4f7a9c2e81d6b035' });
    expect(b.worker_id).not.toBe(a.worker_id);
    expect(b.agent_session.agent_key).not.toBe(a.agent_session.agent_key);
    // The agent key is derived so that it never reveals the worker_id (§2).
    expect(a.agent_session.agent_key).toMatch(/\/worker-[0-9a-f]{32}$/);
    expect(a.agent_session.agent_key).not.toContain(a.worker_id.slice('worker_'.length));
  });

  it('case 5: two workers on one connection sending at once are stored as two identities', async () => {
    const room = await app.room(c1, 'case-5');
    const a = await register(c1, { room_id: room, registration_key: 'case-5-key-a-4f7a9c2e81d6b035', display_name: 'Aspen' });
    const b = await register(c1, { room_id: room, registration_key: 'case-5-key-b-4f7a9c2e81d6b035', display_name: 'Rowan' });
    const [idA, idB] = await Promise.all([
      send(c1, { worker_id: a.worker_id, text: 'from Aspen' }),
      send(c1, { worker_id: b.worker_id, text: 'from Rowan' }),
    ]);
    const row = async (id: string) =>
      (await placeRow<{ sender: string; publisher_session_id: string }>(app, 'SELECT sender, publisher_session_id FROM messages WHERE room_id = ? AND number = ?', room, Number(id.slice(4))))!;
    const [ra, rb] = [await row(idA), await row(idB)];
    expect(ra).toEqual({ sender: a.agent_session.actor_label, publisher_session_id: a.agent_session.session_id });
    expect(rb).toEqual({ sender: b.agent_session.actor_label, publisher_session_id: b.agent_session.session_id });
    expect(ra.publisher_session_id).not.toBe(rb.publisher_session_id);
    expect(ra.sender).not.toBe(rb.sender);
  });
});

describe('retries, rooms and names', () => {
  it('case 12: after a connection closes without reading its reply, a retry with the key gets the same worker and session', async () => {
    const room = await app.room(c1, 'case-12');
    const key = 'case-12-key-4f7a9c2e81d6b035';
    // C1: a real helper whose stdout nobody reads; it sends the registration and dies.
    const lost = track(spawn(process.execPath, [cliBin, 'mcp', '--data-dir', app.dataDir], { cwd: repoRoot, stdio: ['pipe', 'ignore', 'ignore'] }));
    const line = (message: object) => lost.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
    line({ id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'lost', version: '1' } } });
    line({ method: 'notifications/initialized' });
    line({ id: 2, method: 'tools/call', params: { name: 'register_agent_session', arguments: { room_id: room, registration_key: key, display_name: 'Hazel' } } });
    let committed: { worker_id: string } | undefined;
    await until(async () => {
      committed = await placeRow<{ worker_id: string }>(app, 'SELECT worker_id FROM workers WHERE registration_key_hash = ?', sha256hex(key));
      const stored = committed && (await placeRow(app, 'SELECT 1 AS one FROM agent_sessions WHERE session_id = ?', workerSessionId(committed.worker_id, room)));
      return !!stored;
    }, 'the first registration committed');
    lost.kill('SIGKILL');

    const retry = await register(c2, { room_id: room, registration_key: key, display_name: 'Hazel' });
    expect(retry.worker_id).toBe(committed!.worker_id);
    expect(retry.agent_session.session_id).toBe(workerSessionId(committed!.worker_id, room));
    expect(retry.agent_session.display_name).toBe('Hazel');
    expect(await count(app, 'SELECT count(*) FROM workers WHERE registration_key_hash = ?', sha256hex(key))).toBe(1);
    expect(await count(app, 'SELECT count(*) FROM agent_sessions WHERE worker_id = ?', retry.worker_id)).toBe(1);
  });

  it('case 13: a worker in two rooms must name the room (W12); an unknown or malformed worker_id is W7', async () => {
    const r = await app.room(c1, 'case-13-r');
    const s = await app.room(c1, 'case-13-s');
    const w = await register(c1, { room_id: r, registration_key: 'case-13-key-4f7a9c2e81d6b035' });
    await register(c1, { room_id: s, worker_id: w.worker_id });
    const messages = () => count(app, 'SELECT count(*) FROM messages');
    const before = await messages();
    expect(await call(c1, 'send_message', { worker_id: w.worker_id, text: 'where am I?' })).toEqual(hard(W12));
    expect(await call(c1, 'send_message', { worker_id: 'worker_00000000000000000000000000000000', room_id: r, text: 'hi' })).toEqual(hard(W7));
    expect(await call(c1, 'send_message', { worker_id: 'worker_not-a-handle', room_id: r, text: 'hi' })).toEqual(hard(W7));
    expect(await messages()).toBe(before);
    await send(c1, { worker_id: w.worker_id, room_id: s, text: 'in S' });
  });

  it('case 14: a second chat asking for a taken name gets a codename (never "Cedar 2") and its actor label uses it', async () => {
    const room = await app.room(c1, 'case-14');
    const first = await register(c1, { room_id: room, registration_key: 'case-14-key-a-4f7a9c2e81d6b035', display_name: 'Cedar' });
    const second = await register(c2, { room_id: room, registration_key: 'case-14-key-b-4f7a9c2e81d6b035', display_name: 'Cedar' });
    expect(first.agent_session.display_name).toBe('Cedar');
    const substitute = second.agent_session.display_name as string;
    expect(substitute).toBe(expectedSubstitute(second.agent_session.agent_key, ['Cedar']));
    expect(substitute).not.toMatch(/cedar/i);
    expect(second.agent_session.actor_label.startsWith(`${substitute} | `)).toBe(true);
  });

  it('case 31: an unregistered connection gets one implicit session for its writes; a held worker makes a handle required (W16)', async () => {
    const c3 = await app.connect();
    const room = await app.room(c3, 'case-31');
    const first = await call(c3, 'send_message', { text: 'no handle yet' });
    const second = await call(c3, 'send_message', { text: 'still no handle' });
    const implicitId = first.agent_identity.agent_session_id as string;
    expect(implicitId).toMatch(/^local_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(second.agent_identity.agent_session_id).toBe(implicitId);
    const implicit = await placeRow(app, 'SELECT worker_id, ended_at FROM agent_sessions WHERE session_id = ?', implicitId);
    expect(implicit).toEqual({ worker_id: null, ended_at: null });

    await app.room(c1, room);
    await register(c1, { room_id: room, registration_key: 'case-31-key-4f7a9c2e81d6b035' });
    const before = await count(app, 'SELECT count(*) FROM messages WHERE room_id = ?', room);
    expect(await call(c1, 'send_message', { text: 'forgot my handle' })).toEqual(hard(W16));
    expect(await count(app, 'SELECT count(*) FROM messages WHERE room_id = ?', room)).toBe(before);
  });
});
