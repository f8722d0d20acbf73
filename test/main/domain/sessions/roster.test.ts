import { describe, expect, it } from 'vitest';
import { createLegacySession, endSession, listAgents, sessionActor, toAgentSessionObject } from '../../../../src/main/domain/sessions/sessions';
import { addTask } from '../../../../src/main/domain/tasks/createTask';
import { claimTask } from '../../../../src/main/domain/tasks/claim';
import { ADA, makeFixture, register } from './fixtures';

const person = { kind: 'person', label: 'Ada' } as const;

describe('the agents roster', () => {
  it('shows each agent session with its labels, presence, room and the tasks it holds', async () => {
    const fx = await makeFixture(['R', 'S']);
    const juniper = await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Juniper');
    await fx.store.write(async (tx) => {
      await addTask(tx, 'R', person, { title: 'one' });
      await addTask(tx, 'R', person, { title: 'two' });
      await claimTask(tx, 'R', 1, sessionActor(juniper));
      await claimTask(tx, 'R', 2, sessionActor(juniper));
    });
    const [entry] = await listAgents(fx.store.q, { roomId: 'R' });
    expect(entry).toEqual({
      sessionId: juniper.session_id,
      roomId: 'R',
      roomName: 'Room R',
      durable: true,
      workerId: juniper.worker_id,
      displayName: 'Juniper',
      actorLabel: "Juniper | Ada's agent | Claude Code",
      agentKey: juniper.agent_key,
      ideLabel: 'Claude Code',
      runtime: 'claude-code',
      ownerLabel: 'Ada',
      status: 'working',
      statusText: 'claimed task_2',
      repoBranch: 'main',
      ended: false,
      endedAt: null,
      endedBy: null,
      tasksHeld: ['task_1', 'task_2'],
      lastSeenAt: '2026-05-01T09:30:00.000Z',
      // Registered without an app's connection (the domain alone): held by no host yet.
      hostId: null,
      hostLabel: null,
      releasedAt: null,
      hostHeardAt: null,
    });
  });

  it('leaves controllers off and filters by room', async () => {
    const fx = await makeFixture(['R', 'S']);
    await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Juniper');
    await register(fx, 'k2-4f7a9c2e81d6b035', 'S', 'Birch');
    await fx.store.write((tx) =>
      createLegacySession(tx, { roomId: 'R', requestedName: 'Watcher', defaultKey: 'conn:c1', ...ADA, sessionKind: 'controller' }),
    );
    expect((await listAgents(fx.store.q)).map((a) => a.displayName).sort()).toEqual(['Birch', 'Juniper']);
    expect((await listAgents(fx.store.q, { roomId: 'S' })).map((a) => a.displayName)).toEqual(['Birch']);
  });

  it('shows ended sessions after live ones, marked ended', async () => {
    const fx = await makeFixture();
    await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Juniper');
    fx.advance(1_000);
    // Seen more recently than Juniper, but ended: still listed after the live one.
    const gone = await register(fx, 'k2-4f7a9c2e81d6b035', 'R', 'Birch');
    await fx.store.write((tx) => endSession(tx, gone.session_id, 'person'));
    const roster = await listAgents(fx.store.q);
    expect(roster.map((a) => [a.displayName, a.ended, a.endedBy])).toEqual([
      ['Juniper', false, null],
      ['Birch', true, 'person'],
    ]);
  });

  it('marks legacy sessions as not durable', async () => {
    const fx = await makeFixture();
    await fx.store.write((tx) => createLegacySession(tx, { roomId: 'R', requestedName: 'Old', defaultKey: 'conn:c1', ...ADA }));
    expect((await listAgents(fx.store.q))[0]).toMatchObject({ displayName: 'Old', durable: false, tasksHeld: [] });
  });
});

describe('the agent_session object', () => {
  it('has exactly the fields of mcp-tools §4 with the local host constants', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Juniper');
    const object = toAgentSessionObject(s, { online: true, hostId: 'host_0123456789abcdef0123456789abcdef', place: 'local' });
    expect(Object.keys(object)).toEqual([
      'session_id', 'room_id', 'session_kind', 'runtime', 'host_id', 'host_kind', 'host_label', 'liveness_capability',
      'tool_bridge_id', 'actor_label', 'agent_key', 'agent_instance_id', 'display_name', 'owner_label', 'ide_label',
      'repo_branch', 'online', 'status', 'status_text', 'created_at', 'updated_at', 'last_seen_at', 'ended_at',
    ]);
    expect(object).toMatchObject({
      session_id: s.session_id,
      room_id: 'R',
      session_kind: 'worker',
      runtime: 'claude-code',
      host_id: 'host_0123456789abcdef0123456789abcdef',
      host_kind: 'local',
      host_label: 'Local device',
      liveness_capability: 'session_activity',
      tool_bridge_id: null,
      actor_label: "Juniper | Ada's agent | Claude Code",
      agent_key: s.agent_key,
      agent_instance_id: null,
      display_name: 'Juniper',
      owner_label: 'Ada',
      ide_label: 'Claude Code',
      repo_branch: 'main',
      online: true,
      status: 'idle',
      status_text: 'available in room',
      ended_at: null,
    });
  });

  it('in a team room, names the machine whose app holds it (host_kind team)', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Juniper');
    const held = { ...s, host_id: 'host_b', host_label: 'build-box' };
    expect(toAgentSessionObject(held, { online: true, hostId: 'host_a', place: 'acme' })).toMatchObject({
      host_id: 'host_b', host_kind: 'team', host_label: 'build-box',
    });
  });

  it('never reveals the worker id', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Juniper');
    const text = JSON.stringify(toAgentSessionObject(s, { online: false, hostId: 'host_x', place: 'local' }));
    expect(text).not.toContain(s.worker_id);
    expect(text).not.toContain(s.worker_id.slice('worker_'.length));
  });
});
