// An agent that never reads (issue 15 item 5): 300 read_messages(limit: 0) on a paused
// agent socket, against a room of big messages, once paced and once in one burst. The app
// closes that connection with a logged reason (replies unread, then calls in flight), its
// peak memory stays under 400 MB, and another agent keeps working throughout.
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, connectHelper, ensureCliBuilt, openRawSocket, shakeHands, startServe, waitUntil, type HelperClient, type ServeHandle } from '../support';
import { mustCall } from './lib/mcpCalls';

const ROOM = 'big-messages';
const READS = 300;
let serve: ServeHandle;
let other: HelperClient;
let before = 0;

/** The app's peak resident memory so far (VmHWM), in MiB. */
const peakMiB = () => Number(/VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${serve.process.pid}/status`, 'utf8'))![1]) / 1024;

beforeAll(async () => {
  await ensureCliBuilt();
  serve = await startServe();
  other = await connectHelper(serve.dataDir);
  await mustCall(other, 'join_room', { name: ROOM });
  // About 2.5 MiB of messages: every read_messages(limit: 0) answers with its 2 MiB bound.
  for (let i = 0; i < 10; i++) await mustCall(other, 'send_message', { room_id: ROOM, text: `${i} ${'big message '.repeat(21_000)}` });
  before = peakMiB();
}, 60_000);

afterAll(async () => {
  const peak = serve ? peakMiB() : 0;
  await other?.close().catch(() => undefined);
  await serve?.stop();
  await cleanupSpawned();
  console.info(`agent floods: the app's peak memory was ${peak.toFixed(0)} MB after ${READS * 2} unread read_messages(limit: 0) on two paused sockets (${before.toFixed(0)} MB before them)`);
});

/** An agent connection past the handshake and initialize that reads nothing from now on. */
async function pausedAgent() {
  const raw = await openRawSocket(serve.socket);
  await shakeHands(raw, serve.token);
  raw.send({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'never-reads', version: '1' } } });
  const welcome = JSON.parse(await raw.nextLine());
  expect(welcome.result.serverInfo.name).toBe('letagents-desktop');
  raw.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  raw.socket.pause();
  raw.socket.removeAllListeners('data');
  return raw;
}

const read = (id: number) => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'read_messages', arguments: { room_id: ROOM, limit: 0 } } });

/** What the app logged when it closed a connection past a limit (connectionLimits.ts). */
const UNREAD = /agent socket: closed c\d+: more than 16 MiB of replies unread \(the agent stopped reading\)\./;
const IN_FLIGHT = /agent socket: closed c\d+: more than 64 calls in flight at once\./;
const closedReasons = () => serve.output().stderr.split('\n').filter((line) => line.includes('agent socket: closed'));

/**
 * Waits until the app logged that it closed the connection for `reason` (all closings named when
 * not), then sees the socket close from the agent's side: a paused socket whose buffer is full
 * reads no end-of-stream, so it reads on (and drops) what the app wrote until the close.
 */
async function closedBy(raw: Awaited<ReturnType<typeof pausedAgent>>, reason: RegExp) {
  await waitUntil(() => reason.test(serve.output().stderr), 10_000, `"${reason.source}" in the app's log (it logged: ${JSON.stringify(closedReasons())})`);
  raw.socket.resume();
  await raw.closed;
}

describe('an agent that never reads its replies', () => {
  it('is cut off once 16 MiB of replies wait for it; the app stays small and another agent carries on', async () => {
    const raw = await pausedAgent();
    // Paced by the app, not by a clock: ten calls, then another agent's call, which the app
    // reads after them and answers once it got to them; so the replies (not the calls) pile up.
    for (let sent = 0; sent < READS && !UNREAD.test(serve.output().stderr); sent += 10) {
      for (let i = 1; i <= 10; i++) raw.send(read(sent + i));
      // The other agent carries on meanwhile.
      const reply = await mustCall(other, 'read_messages', { room_id: ROOM, limit: 1 });
      expect((reply.messages as unknown[]).length).toBe(1);
    }
    await closedBy(raw, UNREAD);
    expect(IN_FLIGHT.test(serve.output().stderr)).toBe(false);
    // Another agent's call runs after whatever the app still had to do; then the peak is in.
    await mustCall(other, 'read_messages', { room_id: ROOM, limit: 1 });
    expect(peakMiB()).toBeLessThan(400);
  }, 60_000);

  it('is cut off at once when it sends them all in one burst (too many calls in flight)', async () => {
    const raw = await pausedAgent();
    raw.socket.write(Array.from({ length: READS }, (_, i) => `${JSON.stringify(read(i + 1))}\n`).join(''));
    await closedBy(raw, IN_FLIGHT);
    await mustCall(other, 'send_message', { room_id: ROOM, text: 'still working' });
    expect(peakMiB()).toBeLessThan(400);
    expect(serve.process.exitCode).toBeNull();
  }, 60_000);
});
