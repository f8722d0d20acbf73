// Long waits: wait_for_messages sends notifications/progress every 10 s to a client that
// sent a progress token, so a client that resets its request timeout on progress can wait
// longer than that timeout. The interval itself (with a fake clock), a 70 s wait against a
// 60 s client timeout at a twentieth of the time (in-process, the interval shortened through
// the hub's internal option), and the real 10 s over HTTP against a real serve.
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Progress } from '@modelcontextprotocol/sdk/types.js';
import { startWaitProgress, WAIT_PROGRESS_EVERY_MS } from '../../../src/main/mcp/tools/waitProgress';
import type { ToolCallContext } from '../../../src/main/mcp/toolKit';
import { cleanupSpawned, connectHttp } from '../../support';
import { startApp } from './harness';
import { startInProcessApp, type InProcessApp } from './inProcess';

afterEach(() => {
  vi.useRealTimers();
});

afterAll(async () => {
  await cleanupSpawned();
});

/** A call context that records what the wait sends. */
function recordingCall(progressToken?: string) {
  const sent: unknown[] = [];
  const call: ToolCallContext = { requestId: 1, signal: new AbortController().signal, progressToken, notify: async (n) => void sent.push(n), log: () => undefined };
  return { call, sent };
}

describe('the progress interval', () => {
  it('ticks every 10 s with the elapsed time, and stops with the wait', () => {
    vi.useFakeTimers();
    expect(WAIT_PROGRESS_EVERY_MS).toBe(10_000);
    const { call, sent } = recordingCall('token-1');
    const stop = startWaitProgress(call, 30_000, WAIT_PROGRESS_EVERY_MS);
    vi.advanceTimersByTime(9_999);
    expect(sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(sent).toEqual([{ method: 'notifications/progress', params: { progressToken: 'token-1', progress: 10_000, total: 30_000, message: 'waited 10 s of 30 s' } }]);
    vi.advanceTimersByTime(10_000);
    expect(sent).toHaveLength(2);
    expect((sent[1] as { params: Progress }).params.progress).toBe(20_000);
    stop();
    vi.advanceTimersByTime(30_000);
    expect(sent).toHaveLength(2);
  });

  it('sends nothing to a client that sent no progress token', () => {
    vi.useFakeTimers();
    const { call, sent } = recordingCall();
    startWaitProgress(call, 30_000, WAIT_PROGRESS_EVERY_MS);
    vi.advanceTimersByTime(60_000);
    expect(sent).toEqual([]);
  });
});

describe('a wait longer than the client timeout', () => {
  // A twentieth of the real figures: progress every 0.5 s, a 3 s (60 s) client timeout, a 3.5 s (70 s) wait.
  let app: InProcessApp;
  beforeAll(async () => {
    app = await startInProcessApp({ waitProgressMs: 500 });
  });
  afterAll(() => app.close());

  it('survives with a client that resets its timeout on progress, and times out without', async () => {
    const agent = await app.connect();
    await agent.call('join_room', { name: 'long waits' });
    await agent.call('send_message', { text: 'something to wait after' });
    const cursor = (await agent.call('wait_for_messages', { timeout: 1_000 })).last_observed_message_id;
    const ticks: Progress[] = [];
    const args = { name: 'wait_for_messages', arguments: { after_message_id: cursor, timeout: 3_500 } };
    const started = Date.now();
    const result = await agent.client.callTool(args, undefined, { timeout: 3_000, resetTimeoutOnProgress: true, onprogress: (p) => void ticks.push(p) });
    expect(Date.now() - started).toBeGreaterThanOrEqual(3_500);
    expect(result.structuredContent).toMatchObject({ messages: [] });
    expect(ticks.length).toBeGreaterThanOrEqual(5);
    expect(ticks.map((t) => t.progress)).toEqual([...ticks.map((t) => t.progress)].sort((a, b) => a - b));
    expect(ticks[0]).toMatchObject({ total: 3_500 });

    await expect(agent.client.callTool(args, undefined, { timeout: 3_000, onprogress: () => undefined })).rejects.toMatchObject({ code: -32001 });
  }, 20_000);
});

describe('the real interval over HTTP', () => {
  it('sends the first progress after 10 s on the call\'s own stream', async () => {
    const serve = await startApp();
    const client = await connectHttp(serve.mcpUrl, serve.token);
    await client.callTool({ name: 'join_room', arguments: { name: 'http waits' } });
    await client.callTool({ name: 'send_message', arguments: { text: 'something to wait after' } });
    const first = await client.callTool({ name: 'wait_for_messages', arguments: { timeout: 1_000 } });
    const after = (first.structuredContent as { last_observed_message_id: string }).last_observed_message_id;
    const ticks: Progress[] = [];
    const args = { after_message_id: after, timeout: 11_000 };
    await client.callTool({ name: 'wait_for_messages', arguments: args }, undefined, { timeout: 20_000, onprogress: (p) => void ticks.push(p) });
    expect(ticks).toHaveLength(1);
    expect(ticks[0].progress).toBeGreaterThanOrEqual(9_900); // timers may fire a millisecond early
    expect(ticks[0].progress).toBeLessThan(11_000);
    await client.close();
    await serve.stop();
  }, 30_000);
});
