// Pushing wakes into open Claude Code sessions (issue 26), at the protocol level: agents are
// real `letagents-desktop mcp` helpers driven by the SDK client; Juniper's helper is started
// by a process carrying Claude Code's channel flag (bench/fixtures/agentProcess.mjs), as the
// real CLI starts it, and its client names itself "claude-code". Birch is the same client
// started without the flag. What the real CLI does with a push is in claudeChannel.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CHANNEL_FLAGS, cleanupSpawned, waitUntil, type ServeHandle } from '../support';
import type { PlacedApp } from '../support/place';
import { callsTogether, connectAgent, registerWorker, startApp, type Agent } from './tools/harness';

const ROOM = 'channel-room';

interface ChannelPush {
  content: string;
  meta: Record<string, string>;
}

let serve: ServeHandle & PlacedApp;
let juniper: Agent;
let birch: Agent;
let cedar: Agent;
let juniperWorker: string;
let birchWorker: string;
let cedarWorker: string;
let anchor: string;
const pushes: ChannelPush[] = [];
const birchPushes: ChannelPush[] = [];

function hearPushes(agent: Agent, into: ChannelPush[]): void {
  agent.client.fallbackNotificationHandler = async (n) => {
    if (n.method === 'notifications/claude/channel') into.push(n.params as unknown as ChannelPush);
  };
}

beforeAll(async () => {
  serve = await startApp();
  juniper = await connectAgent(serve, { clientName: 'claude-code', agentFlags: CLAUDE_CHANNEL_FLAGS });
  birch = await connectAgent(serve, { clientName: 'claude-code' });
  cedar = await connectAgent(serve, { clientName: 'codex-test' });
  hearPushes(juniper, pushes);
  hearPushes(birch, birchPushes);
  juniperWorker = (await registerWorker(juniper, ROOM, 'Juniper')).workerId;
  birchWorker = (await registerWorker(birch, ROOM, 'Birch')).workerId;
  cedarWorker = (await registerWorker(cedar, ROOM, 'Cedar')).workerId;
  // A message routed to Juniper whose status shows Juniper's reachability (waitUntilWaiting).
  anchor = await cedarSays('@Juniper welcome to the room');
  await nextPush(0);
}, 60_000);

afterAll(async () => {
  await juniper?.client.close();
  await birch?.client.close();
  await cedar?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

const cedarSays = async (text: string, extra: Record<string, unknown> = {}) => (await cedar.call('send_message', { worker_id: cedarWorker, text, ...extra })).id as string;
/** The next push Juniper gets after `seen` of them. */
async function nextPush(seen: number): Promise<ChannelPush> {
  await waitUntil(() => pushes.length > seen, 10_000, 'a channel notification');
  return pushes[seen];
}
const statusOf = async (messageId: string, agent: string) =>
  (await cedar.call('get_message_status', { worker_id: cedarWorker, message_id: messageId, agent })).recipients[0] as Record<string, unknown>;

describe('the channel capability', () => {
  it('is declared to every client', () => {
    expect(juniper.client.getServerCapabilities()?.experimental).toMatchObject({ 'claude/channel': {} });
  });
});

describe('a registered Claude Code agent at its prompt', () => {
  it('gets a mention pushed as a channel notification with its text and identifier-only meta', async () => {
    const before = pushes.length;
    const id = await cedarSays('@Juniper please look at the failing build');
    const push = await nextPush(before);
    expect(push.content).toBe('@Juniper please look at the failing build');
    expect(push.meta).toEqual({ room: ROOM, message_id: id, sender: 'Cedar', sender_kind: 'agent' });
    for (const key of Object.keys(push.meta)) expect(key).toMatch(/^[A-Za-z_][A-Za-z0-9_]*$/);
  });

  it('is not pushed room noise: a status post and an unrelated reply push nothing, the next mention is the next push', async () => {
    const before = pushes.length;
    await cedar.call('post_status', { worker_id: cedarWorker, text: 'building the release' });
    const other = await cedarSays('@Birch a note for you only');
    const mention = await cedarSays('@Juniper the build is green again');
    const push = await nextPush(before);
    expect(push.meta.message_id).toBe(mention);
    expect(push.content).toBe('@Juniper the build is green again');
    expect(push.meta).not.toHaveProperty('messages');
    expect(pushes.slice(before).map((p) => p.meta.message_id)).not.toContain(other);
  });

  it('is pushed once for a burst: messages committed together arrive as one notification', async () => {
    const before = pushes.length;
    // Three calls that reach the app together, as a client's parallel tool calls: one burst.
    const sent = await callsTogether(cedar, () => [1, 2, 3].map((n) => cedarSays(`@Juniper step ${n} of the rollout`)));
    const push = await nextPush(before);
    const numbers = sent.map((id) => Number(id.slice(4))).sort((a, b) => a - b);
    expect(push.meta).toMatchObject({ message_id: `msg_${numbers[2]}`, messages: '3', sender: 'Cedar' });
    for (const id of sent) expect(push.content).toContain(`${id} from agent Cedar:\n> @Juniper step`);
    // The next mention is the next push: the burst was not pushed piecemeal.
    const after = await cedarSays('@Juniper and one more');
    expect((await nextPush(before + 1)).meta.message_id).toBe(after);
  });

  it('shows the push in the receipts: pushed (not seen) until a read returns it, then seen', async () => {
    const before = pushes.length;
    const id = await cedarSays('@Juniper can you confirm the schema change?');
    await nextPush(before);
    await waitUntil(async () => (await statusOf(id, 'Juniper')).pushed_at !== undefined, 15_000, 'the pushed receipt');
    expect(await statusOf(id, 'Juniper')).toMatchObject({ agent: 'Juniper', delivered_at: null });
    const read = await juniper.call('read_messages', { worker_id: juniperWorker, limit: 5 });
    expect(read.messages.map((m: { id: string }) => m.id)).toContain(id);
    await waitUntil(async () => (await statusOf(id, 'Juniper')).delivered_at !== null, 15_000, 'the seen receipt');
    expect(await statusOf(id, 'Juniper')).not.toHaveProperty('pushed_at');
  });

  it('is not woken again for a pushed message: a later wait returns it only as context, marked pushed_at', async () => {
    const cursor = (await juniper.call('wait_for_messages', { worker_id: juniperWorker, timeout: 1_000 })).last_observed_message_id as string;
    const before = pushes.length;
    const id = await cedarSays('@Juniper the deploy window moved to 3 pm');
    await nextPush(before);
    const waited = await juniper.call('wait_for_messages', { worker_id: juniperWorker, after_message_id: cursor, timeout: 1_000 });
    const message = waited.messages.find((m: { id: string }) => m.id === id);
    expect(message.activation.for_current_agent).toMatchObject({ decision: 'activate', reason: 'explicit_mention', pushed_at: expect.any(String) });
    // A message that is news for it still wakes it, with the pushed one as context.
    const news = waited.last_observed_message_id as string;
    const wait = juniper.call('wait_for_messages', { worker_id: juniperWorker, after_message_id: news, timeout: 30_000 });
    const fresh = await waitUntilWaiting(() => cedarSays('@Juniper one more thing'));
    const result = await wait;
    expect(result.messages.map((m: { id: string }) => m.id)).toEqual([fresh]);
    expect(result.messages[0].activation.for_current_agent).not.toHaveProperty('pushed_at');
  });

  it('inside a wait gets the wait result and no push', async () => {
    const cursor = (await juniper.call('wait_for_messages', { worker_id: juniperWorker, timeout: 1_000 })).last_observed_message_id as string;
    const before = pushes.length;
    const wait = juniper.call('wait_for_messages', { worker_id: juniperWorker, after_message_id: cursor, timeout: 30_000 });
    const id = await waitUntilWaiting(() => cedarSays('@Juniper are you there?'));
    const result = await wait;
    expect(result.messages.map((m: { id: string }) => m.id)).toEqual([id]);
    expect(result.messages[0].activation.for_current_agent).not.toHaveProperty('pushed_at');
    // Out of the wait now: the next mention is the next push, and the one the wait returned never was.
    const next = await cedarSays('@Juniper thanks');
    expect((await nextPush(before)).meta.message_id).toBe(next);
  });
});

describe('a Claude Code agent started without the channel flag', () => {
  it('is pushed nothing: its mention waits for its next read', async () => {
    const before = pushes.length;
    const id = await cedarSays('@Juniper @Birch both of you, please');
    // Both agents' pushes start from the same commit: Juniper's arriving means Birch's would have.
    expect((await nextPush(before)).meta.message_id).toBe(id);
    expect(birchPushes).toEqual([]);
    expect(await statusOf(id, 'Birch')).toMatchObject({ agent: 'Birch', delivered_at: null });
    expect(await statusOf(id, 'Birch')).not.toHaveProperty('pushed_at');
    const read = await birch.call('read_messages', { worker_id: birchWorker, limit: 3 });
    expect(read.messages.map((m: { id: string }) => m.id)).toContain(id);
  });
});

/** Runs `send` once Juniper is inside wait_for_messages (its roster entry says listening). */
async function waitUntilWaiting<T>(send: () => Promise<T>): Promise<T> {
  await waitUntil(async () => (await statusOf(anchor, 'Juniper')).reachability === 'listening', 10_000, 'Juniper waiting');
  return send();
}
