// A team database that goes down and comes back: writes fail with team_offline and store
// nothing, the state says offline, and the apps recover by themselves (pool, LISTEN, schema)
// with no reopening, telling callers to re-check their waiters.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventBus } from '../../../../src/main/events/bus';
import type { ChangeHint, ConnectionState } from '../../../../src/main/store/port';
import { PostgresStorage } from '../../../../src/main/store/postgres/postgresStorage';
import { TeamOfflineError } from '../../../../src/main/store/storageErrors';
import { runPostgresSuites, startPostgres, type PgCluster } from '../../../support/postgres';
import { waitUntil } from '../../../support/waitUntil';
import { addMessage, addRoom, gate, messageNumbers, openPostgres } from '../storageFixtures';

describe.skipIf(!runPostgresSuites)('a team database that goes down', () => {
  let cluster: PgCluster;
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.stop());

  it('fails writes with team_offline while down, then recovers by itself after a restart', async () => {
    const url = await cluster.createDatabase();
    const a = await openPostgres(url);
    const b = await openPostgres(url);
    await a.storage.write((tx) => addRoom(tx, 'r'));
    const states: ConnectionState['status'][] = [];
    a.storage.onConnectionChange((s) => states.push(s.status));
    let reconnects = 0;
    a.storage.onReconnect(() => reconnects++);
    const hints: ChangeHint[] = [];
    a.storage.onRemoteChange((h) => hints.push(h));

    cluster.kill();
    await waitUntil(() => a.storage.connection().status === 'offline', 15_000, 'offline state');
    const state = a.storage.connection();
    expect(state).toMatchObject({ status: 'offline', since: expect.any(String), retryAt: expect.any(String), reason: expect.any(String) });

    const refused = await a.storage.write((tx) => addMessage(tx, 'r', 'while down')).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(TeamOfflineError);
    expect((refused as TeamOfflineError).code).toBe('team_offline');
    expect((refused as Error).message).toMatch(/"acme" is offline .*Nothing was written/);
    await expect(a.storage.read((q) => messageNumbers(q, 'r'))).rejects.toBeInstanceOf(TeamOfflineError);

    cluster.start();
    await waitUntil(() => a.storage.connection().status === 'online' && b.storage.connection().status === 'online', 30_000, 'online again');
    expect(reconnects).toBe(1);
    expect(states).toContain('offline');
    expect(states.at(-1)).toBe('online');

    // The same storages work again: writes, reads, and hints on the re-LISTENed connection.
    expect(await a.storage.write((tx) => addMessage(tx, 'r', 'after'))).toBe(1);
    const n = await b.storage.write((tx) => addMessage(tx, 'r', 'from b after'));
    await waitUntil(() => hints.length > 0, 15_000, 'hint after recovery');
    expect(hints).toEqual([{ place: 'acme', type: 'message.created', roomId: 'r', number: n, remote: true }]);
    expect(await a.storage.read((q) => messageNumbers(q, 'r'))).toEqual([1, 2]);
    await Promise.all([a.storage.close(), b.storage.close()]);
  });

  it('leaves nothing half-written when the server dies in the middle of a write', async () => {
    const url = await cluster.createDatabase();
    const { storage, events } = await openPostgres(url);
    await storage.write((tx) => addRoom(tx, 'r'));
    const inserted = gate();
    const resume = gate();
    const writing = storage
      .write(async (tx) => {
        await addMessage(tx, 'r', 'first half');
        inserted.open();
        await resume.opened;
        await addMessage(tx, 'r', 'second half');
      })
      .catch((e: unknown) => e);
    await inserted.opened;
    cluster.kill();
    resume.open();
    expect(await writing).toBeInstanceOf(TeamOfflineError);
    expect(events.filter((e) => e.type === 'message.created')).toEqual([]);

    cluster.start();
    await waitUntil(() => storage.connection().status === 'online', 30_000, 'online again');
    expect(await storage.read((q) => messageNumbers(q, 'r'))).toEqual([]);
    // The counter did not move: the next message is number 1.
    expect(await storage.write((tx) => addMessage(tx, 'r', 'whole'))).toBe(1);
    await storage.close();
  });

  it('says offline from the start when the database is unreachable, and connects when it comes up', async () => {
    const url = await cluster.createDatabase();
    cluster.kill();
    const storage = new PostgresStorage({ place: 'acme', url, bus: new EventBus() });
    await expect(storage.ready()).rejects.toBeInstanceOf(TeamOfflineError);
    expect(storage.connection().status).toBe('offline');
    await expect(storage.write((tx) => addRoom(tx, 'r'))).rejects.toBeInstanceOf(TeamOfflineError);
    cluster.start();
    await waitUntil(() => storage.connection().status === 'online', 10_000, 'online');
    await storage.write((tx) => addRoom(tx, 'r'));
    expect(await storage.read((q) => q.all('SELECT room_id FROM rooms'))).toEqual([{ room_id: 'r' }]);
    await storage.close();
  });
});
