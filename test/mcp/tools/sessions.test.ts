// register_agent_session and disconnect_agent_session through a real helper
// (mcp-tools.md §4): the legacy and durable result shapes, the agent_session object,
// and the basic errors. The worker-handle acceptance cases live in their own suite.
import { hostname } from 'node:os';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, type ServeHandle } from '../../support';
import { connectAgent, expectHard, expectSoft, expectUnchanged, FORGED_WORKER_ID, MALFORMED_WORKER_ID, startApp, W7, type Agent } from './harness';
import { roomUriBase, TEST_PLACE, type PlacedApp } from '../../support/place';

const AGENT_SESSION_KEYS = [
  'actor_label', 'agent_instance_id', 'agent_key', 'created_at', 'display_name', 'ended_at', 'host_id', 'host_kind', 'host_label', 'ide_label',
  'last_seen_at', 'liveness_capability', 'online', 'owner_label', 'repo_branch', 'room_id', 'runtime', 'session_id', 'session_kind', 'status',
  'status_text', 'tool_bridge_id', 'updated_at',
];
const USE_SESSION_ID = 'Pass this exact agent_session_id to wait_for_messages, send_message, and every other room tool.';

let serve: ServeHandle & PlacedApp;
let ada: Agent;

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'claude-code' });
  await ada.call('join_room', { name: 'sessions-room' });
});

afterAll(async () => {
  await ada?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

function expectAgentSession(session: Record<string, unknown>): void {
  expect(Object.keys(session).sort()).toEqual(AGENT_SESSION_KEYS);
  // This computer's rooms say "Local device"; a team's room names the machine that holds the session.
  const host = TEST_PLACE === 'local' ? { host_kind: 'local', host_label: 'Local device' } : { host_kind: 'team', host_label: hostname() };
  expect(session).toMatchObject({ ...host, liveness_capability: 'session_activity', tool_bridge_id: null, agent_instance_id: null });
  expect(session.host_id).toMatch(/^host_[0-9a-f]{32}$/);
  expect(JSON.stringify(session)).not.toMatch(/token/i);
}

describe('register_agent_session', () => {
  it('creates a durable worker with registration_key: worker_id, agent_session, instruction, no agent_session_id', async () => {
    const reg = await ada.call('register_agent_session', { room_id: 'sessions-room', registration_key: 'sessions-key-1-4f7a9c2e81d6b035', display_name: 'Juniper', runtime: 'my-runtime' });
    expect(Object.keys(reg).sort()).toEqual(['agent_session', 'instruction', 'success', 'worker_id']);
    expect(reg.worker_id).toMatch(/^worker_[0-9a-f]{32}$/);
    expectAgentSession(reg.agent_session);
    expect(reg.agent_session).toMatchObject({
      session_id: expect.stringMatching(/^local_[0-9a-f]{64}$/), room_id: 'sessions-room', session_kind: 'worker', runtime: 'my-runtime',
      display_name: 'Juniper', ide_label: 'Claude Code', online: true, status: 'idle', ended_at: null,
    });
    expect(reg.agent_session.actor_label).toMatch(/^Juniper \| .+ \| Claude Code$/);
    // The worker id appears only as the top-level field.
    expect(JSON.stringify(reg.agent_session)).not.toContain(reg.worker_id);
    // Retrying with the same key is idempotent.
    const retry = await ada.call('register_agent_session', { room_id: 'sessions-room', registration_key: 'sessions-key-1-4f7a9c2e81d6b035' });
    expect(retry).toMatchObject({ worker_id: reg.worker_id, agent_session: { session_id: reg.agent_session.session_id, display_name: 'Juniper' } });
  });

  it('registers a legacy session without a handle, defaulting to the current room', async () => {
    const reg = await ada.call('register_agent_session', { display_name: 'Legacy Larch' });
    expect(Object.keys(reg).sort()).toEqual(['agent_session', 'agent_session_id', 'local', 'success', 'use_agent_session_id']);
    expect(reg).toMatchObject({ success: true, local: true, use_agent_session_id: USE_SESSION_ID });
    expect(reg.agent_session_id).toMatch(/^local_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expectAgentSession(reg.agent_session);
    expect(reg.agent_session).toMatchObject({ session_id: reg.agent_session_id, room_id: 'sessions-room', display_name: 'Legacy Larch', online: true });
  });

  it('says plainly when the requested name is taken in the room, in both modes, and the join names both', async () => {
    // "Juniper" belongs to the durable worker registered above; this connection holds it, so
    // the notice also says how to recover it.
    const durable = await ada.call('register_agent_session', { room_id: 'sessions-room', registration_key: 'sessions-key-taken', display_name: 'JUNIPER' });
    const given = durable.agent_session.display_name;
    expect(given.toLowerCase()).not.toBe('juniper');
    expect(Object.keys(durable).sort()).toEqual(['agent_session', 'instruction', 'name_notice', 'name_taken', 'requested_name', 'success', 'worker_id']);
    expect(durable).toMatchObject({ requested_name: 'JUNIPER', name_taken: true });
    expect(durable.name_notice).toBe(
      `The name "JUNIPER" belongs to another agent in this room, so you joined it as "${given}". ` +
        `Others mention you as @${given}: use that name in mentions and when you sign messages, not "JUNIPER". ` +
        'If this chat is that worker and lost its handle, call register_agent_session with room_id, display_name and recover_lost_worker: true instead.',
    );
    const joined = (await ada.call('read_messages', { room_id: 'sessions-room', limit: 1 })).messages[0];
    expect(joined.text).toBe(`${given} joined the room (it asked for the name JUNIPER, which is taken).`);

    const legacy = await ada.call('register_agent_session', { display_name: 'Legacy Larch' });
    expect(legacy).toMatchObject({ success: true, requested_name: 'Legacy Larch', name_taken: true });
    expect(legacy.name_notice).toContain(`@${legacy.agent_session.display_name}`);
  });

  it('refuses bad registrations with the exact phrases, storing nothing', async () => {
    const stranger = await connectAgent(serve);
    await expectUnchanged(serve, async () => {
      expectHard(await ada.call('register_agent_session', { registration_key: 'no-room-given-4f7a9c2e81d6b035' }), "Pass room_id explicitly when registering or reconnecting this chat's worker.");
      expectHard(await ada.call('register_agent_session', { room_id: 'sessions-room', worker_id: FORGED_WORKER_ID }), W7);
      expectHard(await ada.call('register_agent_session', { room_id: 'sessions-room', worker_id: MALFORMED_WORKER_ID }), W7);
      expectHard(await ada.call('register_agent_session', { room_id: 'sessions-room', registration_key: 'k-4f7a9c2e81d6b035', worker_id: FORGED_WORKER_ID }), 'Use worker_id to resume or registration_key to create, not both.');
      expectHard(await ada.call('register_agent_session', { room_id: 'sessions-room', registration_key: 'ctl-key-4f7a9c2e81d6b035', session_kind: 'controller' }), 'Durable handles identify workers, not controllers.');
      expectHard(await ada.call('register_agent_session', { room_id: 'sessions-room', registration_key: 'x-4f7a9c2e81d6b035'.repeat(201) }), /registration_key/);
      expectHard(await ada.call('register_agent_session', { room_id: 'sessions-room', registration_key: 42 }), /registration_key/);
      expectSoft(await ada.call('register_agent_session', { room_id: 'no-such-room', registration_key: 'unknown-room-key' }), 'Room not found.');
      expectSoft(await stranger.call('register_agent_session', {}), 'No room_id provided and not currently in a room.', { hint: 'Pass room_id, or call join_room first.' });
    });
    await stranger.client.close();
  });
});

describe('worker ids stay private', () => {
  it('never show up in any other result, for the worker itself or anyone else', async () => {
    const reg = await ada.call('register_agent_session', { room_id: 'sessions-room', registration_key: 'sessions-key-private', display_name: 'Quartz' });
    const w = reg.worker_id;
    const bob = await connectAgent(serve, { clientName: 'codex' });
    await bob.call('join_room', { name: 'sessions-room' });
    const sent = await ada.call('send_message', { worker_id: w, text: 'private handle check' });
    const task = await ada.call('add_task', { worker_id: w, title: 'Private handle task' });
    const outputs = [
      sent, task,
      await ada.call('post_status', { worker_id: w, status: 'working' }),
      await ada.call('read_messages', { worker_id: w }),
      await ada.call('get_board', { worker_id: w }),
      await ada.call('get_current_room'),
      await ada.call('wait_for_messages', { worker_id: w, timeout: 1000 }),
      await bob.call('read_messages'),
      await bob.call('get_board'),
      await bob.call('wait_for_messages', { timeout: 1000 }),
      await ada.call('disconnect_agent_session', { worker_id: w }),
      (await bob.client.readResource({ uri: `${roomUriBase('sessions-room')}/messages` })).contents,
    ];
    for (const output of outputs) expect(JSON.stringify(output)).not.toContain(w);
    await bob.client.close();
  });
});

describe('disconnect_agent_session', () => {
  it('ends the worker\'s session: local:true, then the same session and name come back on register', async () => {
    const reg = await ada.call('register_agent_session', { room_id: 'sessions-room', registration_key: 'sessions-key-2-4f7a9c2e81d6b035', display_name: 'Cedar' });
    const ended = await ada.call('disconnect_agent_session', { worker_id: reg.worker_id });
    expect(Object.keys(ended).sort()).toEqual(['agent_session', 'local', 'success']);
    expect(ended.agent_session).toMatchObject({ session_id: reg.agent_session.session_id, online: false, ended_at: expect.any(String) });
    expectAgentSession(ended.agent_session);
    const back = await ada.call('register_agent_session', { room_id: 'sessions-room', worker_id: reg.worker_id });
    expect(back.agent_session).toMatchObject({ session_id: reg.agent_session.session_id, display_name: 'Cedar', ended_at: null });
  });

  it('reports an already ended legacy session', async () => {
    const reg = await ada.call('register_agent_session', { room_id: 'sessions-room' });
    expect(await ada.call('disconnect_agent_session', { agent_session_id: reg.agent_session_id })).toMatchObject({ success: true, local: true });
    const again = await ada.call('disconnect_agent_session', { agent_session_id: reg.agent_session_id });
    expect(again).toMatchObject({ success: true, already_ended: true, agent_session: { session_id: reg.agent_session_id } });
  });

  it('answers W21 softly without a session, and W7 / W17 for forged handles, changing nothing', async () => {
    await expectUnchanged(serve, async () => {
      expectSoft(await ada.call('disconnect_agent_session', {}), 'agent_session_id is required to disconnect a worker session.');
      expectHard(await ada.call('disconnect_agent_session', { worker_id: FORGED_WORKER_ID }), W7);
      expectHard(await ada.call('disconnect_agent_session', { worker_id: MALFORMED_WORKER_ID }), W7);
      expectHard(await ada.call('disconnect_agent_session', { agent_session_id: 'local_nope' }), 'Unknown agent_session_id: local_nope');
      expectHard(await ada.call('disconnect_agent_session', { worker_id: FORGED_WORKER_ID, agent_session_id: 'local_nope' }), 'Choose worker_id or agent_session_id, not both.');
    });
  });
});
