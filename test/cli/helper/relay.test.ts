import { afterEach, describe, expect, it } from 'vitest';
import { createServer, createConnection, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { LOST_REQUEST_MESSAGE, Relay } from '../../../src/cli/helper/relay';
import { PING_LINE } from '../../../src/shared-node/protocol';
import { cleanupSpawned, tempDir, waitUntil } from '../../support';

// The relay in-process, between a PassThrough "agent" and a plain socket "app".
const servers: Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) s.close();
  await cleanupSpawned();
});

interface FakeApp {
  /** Lines the app received, per connection. */
  readonly received: string[][];
  readonly sockets: Socket[];
  connect(): Promise<{ socket: Socket; leftover: Buffer }>;
  nextConnection(): Promise<number>;
}

async function fakeApp(): Promise<FakeApp> {
  const path = join(tempDir(), 'app.sock');
  const received: string[][] = [];
  const sockets: Socket[] = [];
  let wake: (() => void) | null = null;
  const server = createServer((socket) => {
    const lines: string[] = [];
    received.push(lines);
    sockets.push(socket);
    let buffer = '';
    socket.on('data', (d) => {
      buffer += d;
      let nl;
      while ((nl = buffer.indexOf('\n')) !== -1) {
        lines.push(buffer.slice(0, nl));
        buffer = buffer.slice(nl + 1);
      }
    });
    wake?.();
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(path, r));
  return {
    received,
    sockets,
    connect: () =>
      new Promise((resolve) => {
        const socket = createConnection(path, () => resolve({ socket, leftover: Buffer.alloc(0) }));
      }),
    nextConnection: () =>
      new Promise((resolve) => {
        const count = sockets.length;
        wake = () => sockets.length > count && resolve(sockets.length - 1);
      }),
  };
}

function agentSide() {
  const input = new PassThrough();
  const output = new PassThrough();
  const seen: string[] = [];
  let buffer = '';
  output.on('data', (d) => {
    buffer += d;
    let nl;
    while ((nl = buffer.indexOf('\n')) !== -1) {
      seen.push(buffer.slice(0, nl));
      buffer = buffer.slice(nl + 1);
    }
  });
  return { input, output, seen, send: (m: object) => input.write(`${JSON.stringify(m)}\n`) };
}


describe('helper relay', () => {
  it('sends heartbeat pings to the app and never to the agent', async () => {
    const app = await fakeApp();
    const agent = agentSide();
    const relay = new Relay({ input: agent.input, output: agent.output, reconnect: async () => 'gone', heartbeatMs: 30 });
    relay.start();
    const connecting = app.nextConnection();
    relay.attach(await app.connect());
    const index = await connecting;
    await waitUntil(() => app.received[index].filter((l) => l === PING_LINE).length >= 3);
    expect(agent.seen).toEqual([]);
    agent.input.end();
    expect(await relay.done).toBe(0);
  });

  it('holds what the agent sends before the app answers and delivers it in order', async () => {
    const app = await fakeApp();
    const agent = agentSide();
    const relay = new Relay({ input: agent.input, output: agent.output, reconnect: async () => 'gone' });
    relay.start();
    agent.send({ jsonrpc: '2.0', id: 1, method: 'initialize', params: {} });
    agent.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // The relay has read both lines (nothing left in the agent's pipe) before any app is there.
    await waitUntil(() => agent.input.writableLength === 0 && agent.input.readableLength === 0, 5_000, "the relay to read the agent's lines");
    relay.attach(await app.connect());
    await waitUntil(() => app.received[0]?.length === 2);
    expect(app.received[0].map((l) => JSON.parse(l).method)).toEqual(['initialize', 'notifications/initialized']);
    agent.input.end();
    await relay.done;
  });

  it('re-sends an initialize that was cut off and lets its answer through', async () => {
    const app = await fakeApp();
    const agent = agentSide();
    const relay = new Relay({ input: agent.input, output: agent.output, reconnect: () => app.connect() });
    relay.start();
    relay.attach(await app.connect());
    agent.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: {} });
    await waitUntil(() => app.received[0]?.length === 1);
    const second = app.nextConnection();
    app.sockets[0].destroy();
    const index = await second;
    await waitUntil(() => app.received[index]?.length === 1);
    expect(JSON.parse(app.received[index][0])).toMatchObject({ id: 0, method: 'initialize' });
    app.sockets[index].write(`${JSON.stringify({ jsonrpc: '2.0', id: 0, result: { ok: true } })}\n`);
    await waitUntil(() => agent.seen.length === 1);
    expect(JSON.parse(agent.seen[0])).toEqual({ jsonrpc: '2.0', id: 0, result: { ok: true } });
    agent.input.end();
    await relay.done;
  });

  it("drops the agent's reply to an app request made on a connection that is gone", async () => {
    const app = await fakeApp();
    const agent = agentSide();
    const relay = new Relay({ input: agent.input, output: agent.output, reconnect: () => app.connect() });
    relay.start();
    relay.attach(await app.connect());
    await waitUntil(() => app.sockets.length === 1);
    app.sockets[0].write(`${JSON.stringify({ jsonrpc: '2.0', id: 'roots-1', method: 'roots/list' })}\n`);
    await waitUntil(() => agent.seen.length === 1);
    const second = app.nextConnection();
    app.sockets[0].destroy();
    const index = await second;
    agent.send({ jsonrpc: '2.0', id: 'roots-1', result: { roots: [] } });
    agent.send({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
    await waitUntil(() => app.received[index]?.length === 1);
    expect(JSON.parse(app.received[index][0]).method).toBe('notifications/roots/list_changed');
    agent.input.end();
    await relay.done;
  });

  it('passes frames through as the bytes they are: split, joined, large, not JSON, CRLF', async () => {
    const app = await fakeApp();
    const agent = agentSide();
    const relay = new Relay({ input: agent.input, output: agent.output, reconnect: async () => 'gone' });
    relay.start();
    relay.attach(await app.connect());
    await waitUntil(() => app.sockets.length === 1);
    const toApp: Buffer[] = [];
    app.sockets[0].on('data', (d: Buffer) => toApp.push(d));
    const toAgent: Buffer[] = [];
    agent.output.on('data', (d: Buffer) => toAgent.push(d));

    // Agent → app: a request split in three chunks, two frames joined in one chunk, a 1 MiB
    // frame, a line that is not JSON, and one ending in CRLF; key order and spacing kept.
    const big = `{"method":"tools/call", "params":{"name":"publish_room_artifact","arguments":{"content":"${'é'.repeat(512 * 1024)}"}},"jsonrpc":"2.0","id":3}\n`;
    const fromAgent = [
      '{"method":"tools/call","params":{"name":"get_current_room","arguments":{}},"jsonrpc":"2.0","id":1}\n',
      '{"jsonrpc":"2.0","id":2,"method":"ping"}\n{"jsonrpc":"2.0","method":"notifications/initialized"}\n',
      big,
      'this is not JSON {\n',
      '{"jsonrpc":"2.0","id":4,"method":"ping"}\r\n',
    ];
    const first = Buffer.from(fromAgent[0]);
    agent.input.write(first.subarray(0, 10));
    agent.input.write(first.subarray(10, 40));
    agent.input.write(first.subarray(40));
    for (const text of fromAgent.slice(1)) agent.input.write(text);
    const expectedToApp = Buffer.from(fromAgent.join(''));
    await waitUntil(() => Buffer.concat(toApp).length >= expectedToApp.length, 10_000, 'every frame at the app');
    expect(Buffer.concat(toApp).equals(expectedToApp)).toBe(true);

    // App → agent: answers laid out id first (as the app writes them) and id last (as the SDK
    // does), a notification, a large answer and a line that is not JSON: all as they came.
    const fromApp = [
      '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"{}"}]}}\n',
      '{"result":{},"jsonrpc":"2.0","id":2}\n{"jsonrpc":"2.0","method":"notifications/message","params":{"level":"info","data":"woke"}}\n',
      `{"jsonrpc":"2.0","id":3,"result":{"text":"${'ü'.repeat(600 * 1024)}"}}\n`,
      'not JSON either\n',
    ];
    for (const text of fromApp) app.sockets[0].write(text);
    const expectedToAgent = Buffer.from(fromApp.join(''));
    await waitUntil(() => Buffer.concat(toAgent).length >= expectedToAgent.length, 10_000, 'every frame at the agent');
    expect(Buffer.concat(toAgent).equals(expectedToAgent)).toBe(true);

    // Answered requests (1, 2, 3, whichever layout) are not in flight: when the app goes, only 4 is.
    const before = agent.seen.length;
    app.sockets[0].destroy();
    await waitUntil(() => agent.seen.length > before);
    await expect.poll(() => agent.seen.slice(before).map((line) => JSON.parse(line))).toEqual([
      { jsonrpc: '2.0', id: 4, error: { code: -32000, message: LOST_REQUEST_MESSAGE } },
    ]);
    agent.input.end();
    await relay.done;
  });

  it('holds a wait_for_messages while the app is away: progress meanwhile, a cancel drops it, the rest go to the app when it is back with the time they have left', async () => {
    const app = await fakeApp();
    const agent = agentSide();
    let back: (() => void) | null = null;
    const reconnect = () => new Promise<void>((resolve) => (back = resolve)).then(() => app.connect());
    const relay = new Relay({ input: agent.input, output: agent.output, reconnect, awayMessage: () => 'LetAgents is away.', waitProgressMs: 50 });
    relay.start();
    relay.attach(await app.connect());
    await waitUntil(() => app.sockets.length === 1);
    app.sockets[0].destroy();
    await waitUntil(() => back !== null, 5_000, 'the relay to notice the app is gone');

    const wait = (id: number, progressToken?: string) => ({
      jsonrpc: '2.0', id, method: 'tools/call',
      params: { name: 'wait_for_messages', arguments: { after_message_id: 'msg_7', timeout: 60_000 }, ...(progressToken ? { _meta: { progressToken } } : {}) },
    });
    agent.send(wait(1, 'tok-1'));
    agent.send(wait(2));
    agent.send({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'get_current_room', arguments: {} } });
    // Other calls are answered at once; the waits are not.
    await waitUntil(() => agent.seen.some((l) => JSON.parse(l).id === 3));
    expect(JSON.parse(agent.seen.find((l) => JSON.parse(l).id === 3)!)).toEqual({ jsonrpc: '2.0', id: 3, error: { code: -32000, message: 'LetAgents is away.' } });
    await waitUntil(() => agent.seen.filter((l) => JSON.parse(l).method === 'notifications/progress').length >= 2, 5_000, 'progress for the wait that asked');
    const progress = agent.seen.map((l) => JSON.parse(l)).filter((m) => m.method === 'notifications/progress');
    expect(progress.every((m) => m.params.progressToken === 'tok-1' && m.params.total === 60_000)).toBe(true);
    expect(progress[0].params.message).toMatch(/^waited \d+ s of 60 s \(LetAgents is not running; waiting for it\)$/);
    expect(agent.seen.map((l) => JSON.parse(l).id).filter((id) => id === 1 || id === 2)).toEqual([]);

    agent.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2, reason: 'the agent gave up' } });
    const next = app.nextConnection();
    back!();
    const index = await next;
    await waitUntil(() => app.received[index]?.length === 1, 5_000, 'the held wait at the app');
    const sent = JSON.parse(app.received[index][0]);
    // Wait 2 was cancelled: only wait 1 reaches the app, with less than its minute left, and no cancel follows it.
    expect(sent).toMatchObject({ id: 1, method: 'tools/call', params: { name: 'wait_for_messages', arguments: { after_message_id: 'msg_7' }, _meta: { progressToken: 'tok-1' } } });
    expect(sent.params.arguments.timeout).toBeLessThan(60_000);
    expect(sent.params.arguments.timeout).toBeGreaterThanOrEqual(1_000);
    app.sockets[index].write(`${JSON.stringify({ jsonrpc: '2.0', id: 1, result: { content: [] } })}\n`);
    await waitUntil(() => agent.seen.some((l) => JSON.parse(l).id === 1));
    expect(app.received[index]).toHaveLength(1);
    agent.input.end();
    await relay.done;
  });

  it('answers a held wait_for_messages as an ordinary timeout, saying the app is away, when its time is up first', async () => {
    const app = await fakeApp();
    const agent = agentSide();
    let away = false;
    const reconnect = () => ((away = true), new Promise<never>(() => undefined));
    const relay = new Relay({ input: agent.input, output: agent.output, reconnect, awayMessage: () => 'LetAgents is away.' });
    relay.start();
    relay.attach(await app.connect());
    await waitUntil(() => app.sockets.length === 1);
    app.sockets[0].destroy();
    await waitUntil(() => away, 5_000, 'the relay to notice the app is gone');
    agent.send({ jsonrpc: '2.0', id: 'w', method: 'tools/call', params: { name: 'wait_for_messages', arguments: { room_id: 'room_1', after_message_id: 'msg_3', timeout: 1_000 } } });
    await waitUntil(() => agent.seen.length === 1, 5_000, 'the timeout result');
    const answer = JSON.parse(agent.seen[0]);
    const expected = {
      room_id: 'room_1',
      messages: [],
      last_observed_message_id: 'msg_3',
      app_away: 'LetAgents is away. Nothing sent meanwhile is lost: call wait_for_messages again with the same after_message_id to go on waiting.',
    };
    expect(answer).toEqual({ jsonrpc: '2.0', id: 'w', result: { content: [{ type: 'text', text: JSON.stringify(expected, null, 2) }], structuredContent: expected } });
    agent.input.end();
    await relay.done;
  });

  it('exits 1 with the reason when the app does not come back', async () => {
    const app = await fakeApp();
    const agent = agentSide();
    const relay = new Relay({ input: agent.input, output: agent.output, reconnect: async () => 'the app is gone' });
    relay.start();
    relay.attach(await app.connect());
    await waitUntil(() => app.sockets.length === 1);
    const stderr = process.stderr.write;
    const written: string[] = [];
    process.stderr.write = ((chunk: string) => (written.push(chunk), true)) as typeof process.stderr.write;
    try {
      app.sockets[0].destroy();
      expect(await relay.done).toBe(1);
    } finally {
      process.stderr.write = stderr;
    }
    expect(written).toEqual(['the app is gone\n']);
  });
});
