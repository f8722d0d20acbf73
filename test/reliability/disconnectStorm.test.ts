// Agents that vanish while their room is busy (issue 24 item 4): 30 agents on raw agent
// sockets against a real `serve` process, each joining a room, sending, and dropping its
// connection at a random moment (between calls or with a call in flight), then coming back,
// for a minute. Every message sent is followed by notifications to the room's other agents,
// some of which are gone by then. The app stays up the whole minute and every message it
// acknowledged is stored.
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, ensureCliBuilt, openRawSocket, shakeHands, startServe, type RawSocket, type ServeHandle } from '../support';

const AGENTS = 30;
const STORM_MS = 60_000;
const ROOM = 'storm';
let serve: ServeHandle | undefined;

afterAll(async () => {
  await serve?.stop();
  await cleanupSpawned();
});

/** A JSON-RPC conversation on one raw socket: replies found by id, notifications skipped. */
function rpc(raw: RawSocket) {
  let nextId = 0;
  return async (method: string, params: Record<string, unknown>): Promise<Record<string, unknown>> => {
    const id = ++nextId;
    raw.send({ jsonrpc: '2.0', id, method, params });
    for (;;) {
      const message = JSON.parse(await raw.nextLine(30_000)) as { id?: number; result?: Record<string, unknown> };
      if (message.id === id) return message.result ?? {};
    }
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One agent's minute: connect, join, send a few, vanish (sometimes mid-call), again. */
async function agentLoop(app: ServeHandle, n: number, until: number, acknowledged: string[]): Promise<number> {
  let connections = 0;
  for (let round = 0; Date.now() < until && app.process.exitCode === null; round++) {
    let raw: RawSocket;
    try {
      raw = await openRawSocket(app.socket);
    } catch {
      continue;
    }
    connections++;
    try {
      await shakeHands(raw, app.token);
      const call = rpc(raw);
      await call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: `storm-${n}`, version: '1' } });
      raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      await call('tools/call', { name: 'join_room', arguments: { name: ROOM } });
      const sends = Math.floor(Math.random() * 5);
      for (let k = 0; k < sends; k++) {
        const text = `agent ${n} round ${round} message ${k}`;
        const result = await call('tools/call', { name: 'send_message', arguments: { room_id: ROOM, text } });
        if (!result.isError && String((result.content as Array<{ text: string }>)[0].text).includes('"msg_')) acknowledged.push(text);
        await pause(Math.random() * 100);
      }
      // Half of the time the agent goes with a call still in flight.
      if (Math.random() < 0.5) raw.send({ jsonrpc: '2.0', id: 999, method: 'tools/call', params: { name: 'send_message', arguments: { room_id: ROOM, text: `agent ${n} round ${round} unanswered` } } });
    } catch {
      // The connection went before its reply: nothing was acknowledged.
    }
    raw.socket.destroy();
    await pause(Math.random() * 200);
  }
  return connections;
}

describe('a disconnect storm', () => {
  it(`${AGENTS} agents joining, sending and vanishing at random for a minute: the app stays up, every acknowledged message is stored`, async () => {
    await ensureCliBuilt();
    const app = (serve = await startServe());
    const started = Date.now();
    let exitedAt: number | null = null;
    app.process.once('exit', () => (exitedAt = Date.now()));
    const acknowledged: string[] = [];
    const counts = await Promise.all(Array.from({ length: AGENTS }, (_, n) => agentLoop(app, n, started + STORM_MS, acknowledged)));
    const ended = Date.now();
    const upSeconds = ((exitedAt ?? ended) - started) / 1000;
    console.info(
      `disconnect storm: the app was up ${upSeconds.toFixed(1)} s of ${((ended - started) / 1000).toFixed(1)} s; ` +
        `${counts.reduce((a, b) => a + b, 0)} connections by ${AGENTS} agents, ${acknowledged.length} acknowledged messages`,
    );
    expect(exitedAt, `serve exited during the storm:\n${app.output().stderr.slice(-3_000)}`).toBeNull();
    expect(app.process.exitCode).toBeNull();
    // Each send to a vanished agent was caught where it was made, not left to the last-resort handler.
    expect(app.output().stderr).not.toContain('nobody to handle it');
    expect(acknowledged.length).toBeGreaterThan(AGENTS);

    const db = new Database(join(app.dataDir, 'letagents.db'), { readonly: true, fileMustExist: true });
    try {
      const stored = new Set(db.prepare('SELECT text FROM messages WHERE room_id = ?').pluck().all(ROOM) as string[]);
      expect(acknowledged.filter((text) => !stored.has(text))).toEqual([]);
    } finally {
      db.close();
    }
    // And the app still answers a new agent.
    const raw = await openRawSocket(app.socket);
    await shakeHands(raw, app.token);
    const call = rpc(raw);
    await call('initialize', { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'after', version: '1' } });
    expect(await call('tools/call', { name: 'get_current_room', arguments: {} })).toHaveProperty('content');
    raw.socket.destroy();
  }, 180_000);
});
