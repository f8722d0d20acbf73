// post_status and post_reasoning through a real helper (mcp-tools.md §5.5): the status
// message, presence from its text, the reasoning result, the milestone message, and M10.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, type ServeHandle } from '../../support';
import { connectAgent, expectHard, expectSoft, expectUnchanged, registerWorker, startApp, type Agent } from './harness';
import type { PlacedApp } from '../../support/place';

const ROOM = 'presence-room';

let serve: ServeHandle & PlacedApp;
let ada: Agent;
let worker: string;

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'codex' });
  worker = (await registerWorker(ada, ROOM, 'Heron')).workerId;
});

afterAll(async () => {
  await ada?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

/** The worker's session as the app sees it now (a resume of a held worker changes nothing). */
async function presence(): Promise<{ status: string; status_text: string }> {
  const reg = await ada.call('register_agent_session', { room_id: ROOM, worker_id: worker });
  return reg.agent_session;
}

describe('post_status', () => {
  it('posts "[status] …" as a status message and returns its id, sender and identity', async () => {
    const result = await ada.call('post_status', { worker_id: worker, status: 'writing tests for task_3' });
    expect(Object.keys(result).sort()).toEqual(['agent_identity', 'message_id', 'sender', 'status_posted', 'success', 'timestamp']);
    expect(result).toMatchObject({ success: true, status_posted: 'writing tests for task_3', message_id: expect.stringMatching(/^msg_\d+$/) });
    expect(result.sender).toMatch(/^Heron \| .+ \| Codex$/);
    expect(result.agent_identity).toMatchObject({ actor_label: result.sender, display_name: 'Heron', source: 'local' });
    const read = await ada.call('read_messages', { room_id: ROOM, limit: 1 });
    expect(read.messages[0]).toMatchObject({ id: result.message_id, kind: 'status', source: 'agent', text: '[status] writing tests for task_3', timestamp: result.timestamp });
  });

  it('sets presence from the text, first match wins', async () => {
    const cases: Array<[string, string]> = [
      ['writing the parser', 'working'],
      ['Waiting on CI before I merge', 'blocked'],
      ['ready for REVIEW', 'reviewing'],
      ['blocked, waiting for review', 'blocked'],
      ['Finished, standing by', 'idle'],
    ];
    for (const [text, status] of cases) {
      await ada.call('post_status', { worker_id: worker, status: text });
      expect(await presence(), text).toMatchObject({ status, status_text: text });
    }
  });

  it('fails hard without a room (R2) or in an unknown room (R3), and on bad input, storing nothing', async () => {
    const fresh = await connectAgent(serve);
    await expectUnchanged(serve, async () => {
      expectHard(await fresh.call('post_status', { status: 'hello' }), 'No room is currently selected. Join a room first or pass room_id.');
      expectHard(await fresh.call('post_status', { status: 'hello', room_id: 'no-such-room' }), 'Room not found.');
      expectHard(await ada.call('post_status', { worker_id: worker }), /status/);
      expectHard(await ada.call('post_status', { worker_id: worker, status: ['a'] }), /status/);
      expectHard(await ada.call('post_status', { worker_id: worker, status: 'x'.repeat(262_145) }), 'Message text must not exceed 262144 UTF-8 bytes.');
    });
    await fresh.client.close();
  });
});

describe('post_reasoning', () => {
  it('stores the reasoning, applies its status, and posts the milestone as a message', async () => {
    const result = await ada.call('post_reasoning', {
      worker_id: worker, summary: 'Narrowed the bug to the cache', goal: 'Fix the stale cache', checking: 'eviction order',
      hypothesis: 'LRU off by one', next_action: 'write a failing test', confidence: 0.7, status: 'working', milestone: 'Found the cause of the stale cache',
    });
    expect(Object.keys(result).sort()).toEqual(['agent_identity', 'milestone_message_id', 'room_id', 'session', 'success', 'update']);
    const label = result.agent_identity.actor_label;
    expect(result).toMatchObject({ success: true, room_id: ROOM, session: { id: `local_reasoning:${label}`, actor_label: label, summary: 'Narrowed the bug to the cache', status: 'working' } });
    expect(Object.keys(result.session).sort()).toEqual(['actor_label', 'id', 'status', 'summary']);
    expect(result.update).toEqual({
      summary: 'Narrowed the bug to the cache', goal: 'Fix the stale cache', checking: 'eviction order', hypothesis: 'LRU off by one',
      blocker: null, next_action: 'write a failing test', confidence: 0.7, created_at: expect.stringMatching(/Z$/),
    });
    expect(result.milestone_message_id).toMatch(/^msg_\d+$/);
    const read = await ada.call('read_messages', { room_id: ROOM, limit: 1 });
    expect(read.messages[0]).toMatchObject({ id: result.milestone_message_id, kind: 'message', source: 'agent', text: 'Found the cause of the stale cache' });
    expect((await presence()).status).toBe('working');

    const quiet = await ada.call('post_reasoning', { worker_id: worker, summary: 'Stuck on credentials', status: 'blocked', blocker: 'no token' });
    expect(quiet).toMatchObject({ milestone_message_id: null, session: { status: 'blocked' }, update: { blocker: 'no token', goal: null } });
    expect((await presence()).status).toBe('blocked');
  });

  it('answers a blank summary with soft M10; bad types and ranges are schema errors; nothing is stored', async () => {
    await expectUnchanged(serve, async () => {
      expectSoft(await ada.call('post_reasoning', { worker_id: worker, summary: '   ', milestone: 'not posted' }), 'summary is required');
      expectHard(await ada.call('post_reasoning', { worker_id: worker, summary: 'ok', confidence: 1.5 }), /confidence/);
      expectHard(await ada.call('post_reasoning', { worker_id: worker, summary: 'ok', confidence: '0.5' }), /confidence/);
      expectHard(await ada.call('post_reasoning', { worker_id: worker, summary: 'ok', status: 'sleeping' }), /status/);
      expectHard(await ada.call('post_reasoning', { worker_id: worker, summary: 7 }), /summary/);
    });
  });
});
