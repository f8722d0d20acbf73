import { describe, expect, it } from 'vitest';
import {
  createLegacySession, endSession, getSession, removeFromRoom, renameSession, sessionActor,
} from '../../../../src/main/domain/sessions/sessions';
import type { PersonActor } from '../../../../src/main/domain/actor';
import { addTask } from '../../../../src/main/domain/tasks/createTask';
import { claimTask } from '../../../../src/main/domain/tasks/claim';
import { getTask } from '../../../../src/main/domain/tasks/board';
import { insertMessageRow } from '../../../../src/main/store/messageRows';
import { ADA, makeFixture, register, type Fixture } from './fixtures';

const person: PersonActor = { kind: 'person', label: 'Ada' };
const concernsOf = (fx: Fixture, number: number) =>
  fx.store.db.prepare("SELECT agent_key, role, task_number FROM event_concerns WHERE room_id = 'R' AND message_number = ? ORDER BY agent_key").all(number);

describe('a person renames an agent', () => {
  it('changes its name and actor label, while old messages keep their sender', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Juniper');
    await fx.store.write((tx) =>
      insertMessageRow(tx, { roomId: 'R', kind: 'message', source: 'agent', sender: s.actor_label, text: 'hi', publisherAgentKey: s.agent_key }),
    );
    fx.events.length = 0;
    const renamed = await fx.store.write((tx) => renameSession(tx, s.session_id, '  Maple|  Ridge ', person));
    expect(renamed).toMatchObject({
      display_name: 'Maple Ridge',
      name_key: 'mapleridge',
      actor_label: "Maple Ridge | Ada's agent | Claude Code",
      agent_key: s.agent_key,
      session_id: s.session_id,
    });
    expect(fx.messages('R').map((m) => m.sender)).toEqual(['LetAgents', "Juniper | Ada's agent | Claude Code", 'LetAgents']);
    // The room hears of it, and the event concerns the renamed agent (it now answers to the new name).
    expect(fx.messages('R').at(-1)).toMatchObject({ source: 'system', text: 'Ada renamed Juniper to Maple Ridge.', publisher_agent_key: null });
    expect(concernsOf(fx, 3)).toEqual([{ agent_key: s.agent_key, role: 'renamed', task_number: null }]);
    expect(fx.events).toEqual([
      { type: 'message.created', place: 'local', roomId: 'R', number: 3, message: expect.objectContaining({ source: 'system', text: 'Ada renamed Juniper to Maple Ridge.' }) },
      { type: 'worker.changed', place: 'local', roomId: 'R', sessionId: s.session_id, change: 'renamed' },
    ]);
  });

  it('keeps the new name when the agent reconnects', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Juniper');
    await fx.store.write((tx) => renameSession(tx, s.session_id, 'Birch', person));
    expect((await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Juniper')).display_name).toBe('Birch');
  });

  it('may change only the case of its own name', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'juniper');
    expect((await fx.store.write((tx) => renameSession(tx, s.session_id, 'JUNIPER', person))).display_name).toBe('JUNIPER');
  });

  it('refuses a name another agent in the room uses, ended workers included, and changes nothing', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Juniper');
    await register(fx, 'k2-4f7a9c2e81d6b035', 'R', 'Cedar');
    const gone = await register(fx, 'k3-4f7a9c2e81d6b035', 'R', 'Birch');
    await fx.store.write((tx) => endSession(tx, gone.session_id, 'disconnect'));
    const before = fx.snapshot();
    for (const taken of ['cedar', 'BIRCH']) {
      await expect(fx.store.write((tx) => renameSession(tx, s.session_id, taken, person))).rejects.toThrow(
        'Another agent in this room already uses that name.',
      );
    }
    expect(fx.snapshot()).toEqual(before);
  });

  it('allows a name only an ended legacy session used', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Juniper');
    const old = await fx.store.write((tx) =>
      createLegacySession(tx, { roomId: 'R', requestedName: 'Cedar', defaultKey: 'conn:c1', ...ADA }),
    );
    await fx.store.write((tx) => endSession(tx, old.session_id, 'connection_closed'));
    expect((await fx.store.write((tx) => renameSession(tx, s.session_id, 'Cedar', person))).display_name).toBe('Cedar');
  });

  it('refuses an empty or over-long name and changes nothing', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Juniper');
    const before = fx.snapshot();
    for (const bad of ['   ', '|', 'x'.repeat(65)]) {
      await expect(fx.store.write((tx) => renameSession(tx, s.session_id, bad, person))).rejects.toThrow('An agent name must be 1–64 characters.');
    }
    await expect(fx.store.write((tx) => renameSession(tx, 'local_missing', 'Birch', person))).rejects.toThrow('Agent session not found.');
    expect(fx.snapshot()).toEqual(before);
  });
});

describe('a person disconnects or removes an agent', () => {
  async function agentHoldingTask() {
    const fx = await makeFixture();
    const s = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Juniper');
    const other = await register(fx, 'k2-4f7a9c2e81d6b035', 'R', 'Cedar');
    await fx.store.write(async (tx) => {
      await addTask(tx, 'R', person, { title: 'Fix login' });
      await addTask(tx, 'R', person, { title: 'Write docs' });
      await claimTask(tx, 'R', 1, sessionActor(s));
      await claimTask(tx, 'R', 2, sessionActor(other));
    });
    return { fx, s, other };
  }

  it('disconnecting ends the session by a person and keeps its leases', async () => {
    const { fx, s } = await agentHoldingTask();
    await fx.store.write((tx) => endSession(tx, s.session_id, 'person'));
    expect(await getSession(fx.store.q, s.session_id)).toMatchObject({ ended_by: 'person' });
    expect(await getTask(fx.store.q, 'R', 1)).toMatchObject({ status: 'assigned', assignee_agent_key: s.agent_key });
  });

  it('removing ends the session by a person and puts its tasks back to accepted', async () => {
    const { fx, s, other } = await agentHoldingTask();
    const removed = await fx.store.write((tx) => removeFromRoom(tx, s.session_id, person));
    expect(removed).toMatchObject({ session_id: s.session_id, ended_by: 'person' });
    expect(removed.ended_at).not.toBeNull();
    // Two events, both about the removed agent: its removal and the release of the task it held.
    const [removal, release] = fx.messages('R').slice(-2);
    expect([removal.text, release.text]).toEqual(['Ada removed Juniper from the room.', 'Ada released task_1.']);
    expect(concernsOf(fx, removal.number)).toEqual([{ agent_key: s.agent_key, role: 'removed', task_number: null }]);
    expect(concernsOf(fx, release.number)).toEqual([{ agent_key: s.agent_key, role: 'holder', task_number: 1 }]);
    expect(await getTask(fx.store.q, 'R', 1)).toMatchObject({ status: 'accepted', assignee: null, active_leases: [] });
    expect(await getTask(fx.store.q, 'R', 2)).toMatchObject({ status: 'assigned', assignee_agent_key: other.agent_key });
  });

  it('removing an agent that already disconnected still releases its work', async () => {
    const { fx, s } = await agentHoldingTask();
    await fx.store.write((tx) => endSession(tx, s.session_id, 'disconnect'));
    await fx.store.write((tx) => removeFromRoom(tx, s.session_id, person));
    expect(await getTask(fx.store.q, 'R', 1)).toMatchObject({ status: 'accepted', active_leases: [] });
  });

  it('removing an unknown session fails and changes nothing', async () => {
    const { fx } = await agentHoldingTask();
    const before = fx.snapshot();
    await expect(fx.store.write((tx) => removeFromRoom(tx, 'local_missing', person))).rejects.toThrow('Agent session not found.');
    expect(fx.snapshot()).toEqual(before);
  });
});
