import { describe, expect, it } from 'vitest';
import {
  AVAILABLE_IN_ROOM, createLegacySession, endSession, findHeldNameMatches, getSession, insertWorkerSession,
  listRoomSessions, openWorkerSession, reviveOrTouchSession,
} from '../../../../src/main/domain/sessions/sessions';
import { findOrCreateWorker } from '../../../../src/main/domain/sessions/workers';
import { codename } from '../../../../src/main/domain/identity/codenames';
import { legacyAgentKey, workerSessionId } from '../../../../src/main/domain/identity/agentKeys';
import { ADA, makeFixture, register, type Fixture } from './fixtures';
import { expectedSubstitute } from '../../../support/substituteName';

const legacy = (fx: Fixture, roomId: string, requestedName: string | null, connection = 'c1', sessionKind: 'worker' | 'controller' = 'worker') =>
  fx.store.write((tx) =>
    createLegacySession(tx, { roomId, requestedName, defaultKey: `conn:${connection}`, ...ADA, runtime: null, sessionKind }),
  );

describe("a worker's first registration in a room", () => {
  it('creates the session with its stable id, name, actor label and presence', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Juniper');
    expect(s).toMatchObject({
      session_id: workerSessionId(s.worker_id, 'R'),
      room_id: 'R',
      session_kind: 'worker',
      display_name: 'Juniper',
      name_key: 'juniper',
      actor_label: "Juniper | Ada's agent | Claude Code",
      owner_label: 'Ada',
      ide_label: 'Claude Code',
      runtime: 'claude-code',
      repo_branch: 'main',
      status: 'idle',
      status_text: 'available in room',
      created_at: '2026-05-01T09:30:00.000Z',
      last_seen_at: '2026-05-01T09:30:00.000Z',
      ended_at: null,
      ended_by: null,
    });
  });

  it('posts "<name> joined the room." as a system event caused by the agent', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Juniper');
    expect(fx.messages('R')).toEqual([
      { number: 1, kind: 'event', source: 'system', sender: 'LetAgents', text: 'Juniper joined the room.', publisher_agent_key: s.agent_key },
    ]);
    expect(fx.events).toContainEqual({ type: 'worker.changed', place: 'local', roomId: 'R', sessionId: s.session_id, change: 'registered' });
  });

  it('lets a controller join silently', async () => {
    const fx = await makeFixture();
    await legacy(fx, 'R', 'Watcher', 'c1', 'controller');
    expect(fx.messages('R')).toEqual([]);
  });
});

describe('name clashes in a room', () => {
  it('gives the second "Cedar" a codename, never "Cedar 2", and builds its actor label from it', async () => {
    const fx = await makeFixture();
    const first = await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Cedar');
    const second = await register(fx, 'k2-4f7a9c2e81d6b035', 'R', 'Cedar');
    expect(first.display_name).toBe('Cedar');
    expect(second.display_name).toBe(expectedSubstitute(second.agent_key, ['Cedar']));
    expect(second.display_name).not.toMatch(/cedar/i);
    expect(second.actor_label).toBe(`${second.display_name} | Ada's agent | Claude Code`);
    // The join names both: the name it asked for and the one it got (issue 18).
    expect(fx.messages('R').map((m) => m.text)).toEqual([
      'Cedar joined the room.',
      `${second.display_name} joined the room (it asked for the name Cedar, which is taken).`,
    ]);
  });

  it('keeps the worker its own name: the substitute is only for this room', async () => {
    const fx = await makeFixture(['R', 'S']);
    await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Cedar');
    const inR = await register(fx, 'k2-4f7a9c2e81d6b035', 'R', 'Cedar');
    const inS = await register(fx, 'k2-4f7a9c2e81d6b035', 'S');
    expect(inR.display_name).not.toBe('Cedar');
    expect(inS.display_name).toBe('Cedar');
  });

  it('compares names after handle normalisation', async () => {
    const fx = await makeFixture();
    await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Maple Ridge');
    const second = await register(fx, 'k2-4f7a9c2e81d6b035', 'R', 'maple-ridge!');
    // "maple-ridge" normalises to "maple-ridge", not "mapleridge": no clash.
    expect(second.display_name).toBe('maple-ridge!');
    const third = await register(fx, 'k3-4f7a9c2e81d6b035', 'R', 'MAPLE RIDGE');
    expect(third.display_name).toBe(expectedSubstitute(third.agent_key, ['Maple Ridge', 'maple-ridge!']));
  });

  it('tries k = 2, 3, … while the earlier codenames are taken too', async () => {
    const fx = await makeFixture();
    await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Cedar');
    const worker = await fx.store.write(async (tx) => (await findOrCreateWorker(tx, { registrationKey: 'k2-4f7a9c2e81d6b035', requestedName: 'Cedar', ...ADA })).worker);
    const k1 = codename(`${worker.agent_key}:1`).displayName;
    await legacy(fx, 'R', k1);
    const session = await fx.store.write((tx) => insertWorkerSession(tx, { worker, roomId: 'R', repoBranch: null }));
    expect(session.display_name).not.toBe(k1);
    expect(session.display_name).toBe(expectedSubstitute(worker.agent_key, ['Cedar', k1]));
  });

  it('counts ended durable sessions but not ended legacy sessions', async () => {
    const fx = await makeFixture();
    const durable = await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Cedar');
    await fx.store.write((tx) => endSession(tx, durable.session_id, 'disconnect'));
    const afterDurable = await register(fx, 'k2-4f7a9c2e81d6b035', 'R', 'Cedar');
    expect(afterDurable.display_name).not.toBe('Cedar');

    const old = await legacy(fx, 'R', 'Birch');
    await fx.store.write((tx) => endSession(tx, old.session_id, 'connection_closed'));
    const afterLegacy = await register(fx, 'k3-4f7a9c2e81d6b035', 'R', 'Birch');
    expect(afterLegacy.display_name).toBe('Birch');
  });

  it('lets live legacy sessions block a name', async () => {
    const fx = await makeFixture();
    await legacy(fx, 'R', 'Cedar');
    const worker = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Cedar');
    expect(worker.display_name).toBe(expectedSubstitute(worker.agent_key, ['Cedar']));
  });

  it('allows the same name in different rooms', async () => {
    const fx = await makeFixture(['R', 'S']);
    await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Cedar');
    expect((await register(fx, 'k2-4f7a9c2e81d6b035', 'S', 'Cedar')).display_name).toBe('Cedar');
  });
});

describe('reconnecting', () => {
  it('keeps the session id and name, revives an ended session and posts nothing', async () => {
    const fx = await makeFixture();
    const first = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Juniper');
    await fx.store.write((tx) => endSession(tx, first.session_id, 'person'));
    fx.advance(60_000);
    const again = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Ignored New Name');
    expect(again).toMatchObject({
      session_id: first.session_id,
      display_name: 'Juniper',
      actor_label: first.actor_label,
      ended_at: null,
      ended_by: null,
      created_at: first.created_at,
      last_seen_at: '2026-05-01T09:31:00.000Z',
    });
    expect(fx.messages('R')).toHaveLength(1);
    expect(fx.store.db.prepare('SELECT COUNT(*) AS n FROM agent_sessions').get()).toEqual({ n: 1 });
  });

  it('resets presence to idle "available in room" and updates the branch only when one is known', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Juniper');
    await fx.store.write((tx) => tx.run("UPDATE agent_sessions SET status = 'working', status_text = 'busy' WHERE session_id = ?", s.session_id));
    const kept = await fx.store.write((tx) => reviveOrTouchSession(tx, s.session_id));
    expect(kept).toMatchObject({ status: 'idle', status_text: AVAILABLE_IN_ROOM, repo_branch: 'main' });
    const moved = await fx.store.write((tx) => reviveOrTouchSession(tx, s.session_id, 'feature/x'));
    expect(moved.repo_branch).toBe('feature/x');
    const cleared = await fx.store.write((tx) => reviveOrTouchSession(tx, s.session_id, null));
    expect(cleared.repo_branch).toBeNull();
  });

  it('tells the caller whether the connect was the first registration', async () => {
    const fx = await makeFixture();
    const worker = await fx.store.write(async (tx) => (await findOrCreateWorker(tx, { registrationKey: 'k-4f7a9c2e81d6b035', ...ADA })).worker);
    const first = await fx.store.write((tx) => openWorkerSession(tx, { worker, roomId: 'R' }));
    const second = await fx.store.write((tx) => openWorkerSession(tx, { worker, roomId: 'R' }));
    expect([first.firstRegistration, second.firstRegistration]).toEqual([true, false]);
    expect(second.session.session_id).toBe(first.session.session_id);
  });
});

describe('legacy and implicit sessions', () => {
  it('get a uuid session id, a legacy agent key, and the connection codename when unnamed', async () => {
    const fx = await makeFixture();
    const s = await legacy(fx, 'R', null, 'c7');
    expect(s.session_id).toMatch(/^local_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(s.worker_id).toBeNull();
    expect(s.agent_key).toBe(legacyAgentKey('ada', s.session_id));
    expect(s.display_name).toBe(codename('conn:c7').displayName);
    expect(s.runtime).toBe('claude-code');
    expect(fx.messages('R').map((m) => m.text)).toEqual([`${s.display_name} joined the room.`]);
  });

  it('follow the same clash rule', async () => {
    const fx = await makeFixture();
    await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Cedar');
    const s = await legacy(fx, 'R', 'Cedar');
    expect(s.display_name).toBe(expectedSubstitute(s.agent_key, ['Cedar']));
  });

  it('pass over a substitute that carries the asked-for name as a word ("BayCedar" for a second "Cedar")', async () => {
    // A session id whose first codename carries "cedar" (found by counting; the key is a hash of it).
    const sessionId = Array.from({ length: 2000 }, (_, i) => `local_00000000-0000-4000-8000-${String(i).padStart(12, '0')}`)
      .find((id) => codename(`${legacyAgentKey('ada', id)}:1`).words.includes('cedar'))!;
    const carrying = codename(`${legacyAgentKey('ada', sessionId)}:1`).displayName;
    const fx = await makeFixture();
    await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Cedar');
    const s = await fx.store.write((tx) =>
      createLegacySession(tx, { roomId: 'R', requestedName: 'Cedar', defaultKey: 'conn:c1', ...ADA, runtime: null, sessionId }),
    );
    expect(s.display_name).not.toBe(carrying);
    expect(s.display_name).toBe(codename(`${s.agent_key}:2`).displayName);
    expect(s.display_name).not.toMatch(/cedar/i);
  });

  it('give a connection that registers twice unnamed a substitute for the second', async () => {
    const fx = await makeFixture();
    const unnamedTwice = [await legacy(fx, 'R', null, 'c9'), await legacy(fx, 'R', null, 'c9')];
    expect(unnamedTwice[0].display_name).toBe(codename('conn:c9').displayName);
    expect(unnamedTwice[1].display_name).not.toBe(unnamedTwice[0].display_name);
  });
});

describe('ending a session', () => {
  it('records who ended it, once; a second end reports already ended', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Juniper');
    fx.advance(1_000);
    const ended = await fx.store.write((tx) => endSession(tx, s.session_id, 'disconnect'));
    expect(ended).toMatchObject({ alreadyEnded: false, session: { ended_at: '2026-05-01T09:30:01.000Z', ended_by: 'disconnect' } });
    fx.advance(1_000);
    const twice = await fx.store.write((tx) => endSession(tx, s.session_id, 'person'));
    expect(twice).toMatchObject({ alreadyEnded: true, session: { ended_at: '2026-05-01T09:30:01.000Z', ended_by: 'disconnect' } });
    expect(fx.events.filter((e) => e.type === 'worker.changed' && e.change === 'ended')).toHaveLength(1);
    expect(fx.messages('R')).toHaveLength(1);
  });

  it('ignores an unknown session, so closing a connection can end the others', async () => {
    const fx = await makeFixture();
    expect(await fx.store.write((tx) => endSession(tx, 'local_missing', 'connection_closed'))).toBeNull();
  });
});

describe('finding sessions by name for recovery', () => {
  it('matches live worker sessions in the room by normalised name only', async () => {
    const fx = await makeFixture(['R', 'S']);
    const juniper = await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Juniper');
    await register(fx, 'k2-4f7a9c2e81d6b035', 'S', 'Juniper');
    await legacy(fx, 'R', 'juniper-legacy');
    const ended = await register(fx, 'k3-4f7a9c2e81d6b035', 'R', 'Birch');
    await fx.store.write((tx) => endSession(tx, ended.session_id, 'disconnect'));

    expect((await findHeldNameMatches(fx.store.q, 'R', ' JUNIPER ')).map((s) => s.session_id)).toEqual([juniper.session_id]);
    expect(await findHeldNameMatches(fx.store.q, 'R', 'juniper-legacy')).toEqual([]);
    expect(await findHeldNameMatches(fx.store.q, 'R', 'Birch')).toEqual([]);
    expect(await findHeldNameMatches(fx.store.q, 'R', 'Nobody')).toEqual([]);
  });

  it('finds a worker by the substitute name it was given', async () => {
    const fx = await makeFixture();
    const real = await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Juniper');
    const other = await register(fx, 'k2-4f7a9c2e81d6b035', 'R', 'Juniper');
    expect((await findHeldNameMatches(fx.store.q, 'R', other.display_name)).map((s) => s.session_id)).toEqual([other.session_id]);
    expect((await findHeldNameMatches(fx.store.q, 'R', 'Juniper')).map((s) => s.session_id)).toEqual([real.session_id]);
  });
});

describe('listing sessions', () => {
  it("lists a room's sessions, controllers and ended ones included", async () => {
    const fx = await makeFixture(['R', 'S']);
    const a = await register(fx, 'k1-4f7a9c2e81d6b035', 'R', 'Juniper');
    const c = await legacy(fx, 'R', 'Watcher', 'c1', 'controller');
    await register(fx, 'k2-4f7a9c2e81d6b035', 'S', 'Birch');
    await fx.store.write((tx) => endSession(tx, a.session_id, 'person'));
    expect((await listRoomSessions(fx.store.q, 'R')).map((s) => s.session_id).sort()).toEqual([a.session_id, c.session_id].sort());
    expect((await getSession(fx.store.q, a.session_id))?.ended_by).toBe('person');
  });
});
