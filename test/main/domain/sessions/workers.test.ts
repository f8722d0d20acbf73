import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findOrCreateWorker, getWorker, workerRooms } from '../../../../src/main/domain/sessions/workers';
import { endSession } from '../../../../src/main/domain/sessions/sessions';
import { codename } from '../../../../src/main/domain/identity/codenames';
import { hashRegistrationKey } from '../../../../src/main/domain/identity/agentKeys';
import { ADA, makeFixture, register } from './fixtures';

describe('creating a worker from a registration key', () => {
  it('returns the same worker for the same key, with exactly one row', async () => {
    const fx = await makeFixture();
    const first = await fx.store.write((tx) => findOrCreateWorker(tx, { registrationKey: 'key-1-4f7a9c2e81d6b035', requestedName: 'Juniper', ...ADA }));
    const again = await fx.store.write((tx) => findOrCreateWorker(tx, { registrationKey: 'key-1-4f7a9c2e81d6b035', requestedName: 'Other', ...ADA }));
    expect(first.created).toBe(true);
    expect(again.created).toBe(false);
    expect(again.worker).toEqual(first.worker);
    expect(fx.store.db.prepare('SELECT COUNT(*) AS n FROM workers').get()).toEqual({ n: 1 });
  });

  it('turns two concurrent first registrations with one key into one worker and one session', async () => {
    const fx = await makeFixture();
    const [a, b] = await Promise.all([register(fx, 'same-key-4f7a9c2e81d6b035', 'R', 'Juniper'), register(fx, 'same-key-4f7a9c2e81d6b035', 'R', 'Juniper')]);
    expect(b.worker_id).toBe(a.worker_id);
    expect(b.session_id).toBe(a.session_id);
    expect(b.display_name).toBe('Juniper');
    expect(fx.store.db.prepare('SELECT COUNT(*) AS n FROM workers').get()).toEqual({ n: 1 });
    expect(fx.store.db.prepare('SELECT COUNT(*) AS n FROM agent_sessions').get()).toEqual({ n: 1 });
    expect(fx.messages('R')).toHaveLength(1);
  });

  it('gives a different key a different worker id and a different agent key', async () => {
    const fx = await makeFixture();
    const a = await fx.store.write(async (tx) => (await findOrCreateWorker(tx, { registrationKey: 'key-a-4f7a9c2e81d6b035', ...ADA })).worker);
    const b = await fx.store.write(async (tx) => (await findOrCreateWorker(tx, { registrationKey: 'key-b-4f7a9c2e81d6b035', ...ADA })).worker);
    expect(a.worker_id).not.toBe(b.worker_id);
    expect(a.agent_key).not.toBe(b.agent_key);
    for (const w of [a, b]) {
      expect(w.worker_id).toMatch(/^worker_[0-9a-f]{32}$/);
      expect(w.agent_key).toMatch(/^ada\/worker-[0-9a-f]{32}$/);
      expect(w.agent_key).not.toContain(w.worker_id.slice('worker_'.length));
    }
  });

  it('stores only the hash of the registration key, never the key itself', async () => {
    const fx = await makeFixture();
    const key = 'raw-registration-key-7f3a';
    await register(fx, key, 'R', 'Juniper');
    const everything = JSON.stringify(fx.snapshot());
    expect(everything).not.toContain(key);
    expect(everything).toContain(hashRegistrationKey(key));
  });

  it('names the worker with the cleaned requested name, else the codename of its worker id', async () => {
    const fx = await makeFixture();
    const named = await fx.store.write(async (tx) => (await findOrCreateWorker(tx, { registrationKey: 'a-4f7a9c2e81d6b035', requestedName: '  Jun|iper ', ...ADA })).worker);
    const unnamed = await fx.store.write(async (tx) => (await findOrCreateWorker(tx, { registrationKey: 'b-4f7a9c2e81d6b035', requestedName: '   ', ...ADA })).worker);
    expect(named.display_name).toBe('Juniper');
    expect(unnamed.display_name).toBe(codename(unnamed.worker_id).displayName);
  });

  it('keeps the labels it was created with when the same key comes back with other labels', async () => {
    const fx = await makeFixture();
    const first = await fx.store.write(async (tx) => (await findOrCreateWorker(tx, { registrationKey: 'k-4f7a9c2e81d6b035', ...ADA })).worker);
    const later = await fx.store.write(
      async (tx) => (await findOrCreateWorker(tx, { registrationKey: 'k-4f7a9c2e81d6b035', ownerLabel: 'Ada L', ownerSlug: 'adal', ideLabel: 'Cursor' })).worker,
    );
    expect(later).toEqual(first);
    expect(first).toMatchObject({ owner_label: 'Ada', ide_label: 'Claude Code', runtime: 'claude-code' });
  });

  it('uses a given runtime instead of the IDE slug', async () => {
    const fx = await makeFixture();
    const w = await fx.store.write(async (tx) => (await findOrCreateWorker(tx, { registrationKey: 'k-4f7a9c2e81d6b035', ...ADA, runtime: 'custom-rt' })).worker);
    expect(w.runtime).toBe('custom-rt');
  });

  it('refuses a guessable registration key (short, repetitive) or an over-long one, stores nothing, and names the rule', async () => {
    const fx = await makeFixture();
    const before = fx.snapshot();
    const rule = 'registration_key must be 16–200 characters with at least 8 different ones, made up fresh for this chat (a new UUID works)';
    for (const registrationKey of ['', '1', 'k-4f7a9c2e81', '1111111111111111', 'aaaaaaaaaaaaaaaaaaaa', 'abababababababababab', 'abcdefgabcdefgabcdefg', 'x'.repeat(201)]) {
      await expect(fx.store.write((tx) => findOrCreateWorker(tx, { registrationKey, ...ADA })), registrationKey).rejects.toMatchObject({ code: 'invalid_input', kind: 'hard', message: expect.stringContaining(rule) });
    }
    expect(fx.snapshot()).toEqual(before);
    const long = '0123456789abcdef'.repeat(13).slice(0, 200);
    for (const registrationKey of [randomUUID(), 'abcdefgh12345678', long]) {
      await expect(fx.store.write((tx) => findOrCreateWorker(tx, { registrationKey, ...ADA })), registrationKey).resolves.toMatchObject({ created: true });
    }
  });
});

describe('looking a worker up', () => {
  it('finds a worker by id and reports unknown or malformed ids as missing', async () => {
    const fx = await makeFixture();
    const session = await register(fx, 'k-4f7a9c2e81d6b035', 'R');
    expect((await getWorker(fx.store.q, session.worker_id))?.worker_id).toBe(session.worker_id);
    expect(await getWorker(fx.store.q, 'worker_00000000000000000000000000000000')).toBeUndefined();
    expect(await getWorker(fx.store.q, 'not-a-worker')).toBeUndefined();
  });

  it("lists a worker's rooms, including rooms whose session ended", async () => {
    const fx = await makeFixture(['R', 'S', 'T']);
    const inR = await register(fx, 'k-4f7a9c2e81d6b035', 'R');
    const inS = await register(fx, 'k-4f7a9c2e81d6b035', 'S');
    await fx.store.write((tx) => endSession(tx, inS.session_id, 'disconnect'));
    expect(await workerRooms(fx.store.q, inR.worker_id)).toEqual(['R', 'S']);
  });
});
