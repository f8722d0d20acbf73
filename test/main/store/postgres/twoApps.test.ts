// Two apps (two pools, two LISTEN connections) on one team database stand for two machines:
// claims decided by the database, numbering dense across both, wake-up hints between them.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeHint, Tx } from '../../../../src/main/store/port';
import { EventBus } from '../../../../src/main/events/bus';
import { PostgresStorage } from '../../../../src/main/store/postgres/postgresStorage';
import { WriteConflictError } from '../../../../src/main/store/storageErrors';
import { runPostgresSuites, startPostgres, type PgCluster } from '../../../support/postgres';
import { waitUntil } from '../../../support/waitUntil';
import { addMessage, addRoom, messageNumbers, openPostgres, type Opened } from '../storageFixtures';

class TaskTaken extends Error {}

/** A claim as the domain makes one: read the task, refuse if held, else take the lease and the task. */
async function claim(tx: Tx, number: number, holder: string): Promise<string> {
  const task = await tx.get<{ assignee: string | null }>('SELECT assignee FROM tasks WHERE room_id = ? AND number = ?', 'r', number);
  if (task?.assignee) throw new TaskTaken(`held by ${task.assignee}`);
  await tx.run(
    `INSERT INTO task_leases (lease_id, room_id, task_number, kind, holder_label, status, created_at, updated_at)
     VALUES (?, 'r', ?, 'work', ?, 'active', ?, ?)`,
    `lease_${number}_${holder}`, number, holder, tx.now, tx.now,
  );
  await tx.run("UPDATE tasks SET assignee = ?, status = 'assigned', updated_at = ? WHERE room_id = 'r' AND number = ?", holder, tx.now, number);
  tx.emit({ type: 'task.changed', roomId: 'r', number });
  return holder;
}

describe.skipIf(!runPostgresSuites)('two apps on one team database', () => {
  let cluster: PgCluster;
  let a: Opened<PostgresStorage>;
  let b: Opened<PostgresStorage>;

  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.stop());
  afterEach(async () => {
    await Promise.all([a?.storage.close(), b?.storage.close()]);
  });

  async function twoApps(): Promise<string> {
    const url = await cluster.createDatabase();
    [a, b] = await Promise.all([openPostgres(url, 'acme'), openPostgres(url, 'acme')]);
    await a.storage.write((tx) => addRoom(tx, 'r'));
    return url;
  }

  it('20 claim races on one task from both apps: exactly one winner each time, one lease', async () => {
    await twoApps();
    for (let n = 1; n <= 20; n++) {
      await a.storage.write((tx) =>
        tx.run(
          "INSERT INTO tasks (room_id, number, status, title, created_by, created_at, updated_at) VALUES ('r', ?, 'accepted', 'T', 'Ada', ?, ?)",
          n, tx.now, tx.now,
        ),
      );
    }
    for (let n = 1; n <= 20; n++) {
      // Each app runs one write at a time per place, so each app sends one claim per race.
      const results = await Promise.allSettled([a.storage.write((tx) => claim(tx, n, 'agent-a')), b.storage.write((tx) => claim(tx, n, 'agent-b'))]);
      const winners = results.filter((r) => r.status === 'fulfilled');
      const losers = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
      expect(winners, `race ${n}`).toHaveLength(1);
      expect(losers[0].reason, `race ${n}`).toBeInstanceOf(TaskTaken);
      const leases = await a.storage.read((q) => q.all('SELECT holder_label FROM task_leases WHERE task_number = ?', n));
      expect(leases).toHaveLength(1);
    }
    // The losing app published no event for its refused claim.
    const changed = [...a.events, ...b.events].filter((e) => e.type === 'task.changed');
    expect(changed).toHaveLength(20);
  });

  it('numbers messages densely when both apps send at once, and acknowledges only what is stored', async () => {
    await twoApps();
    // 20 writes queued in each app: the app that won a conflict starts its next write before the
    // loser's retry, so a loser can lose more than ten times in a row on a loaded machine; it
    // keeps trying (at least 10 times and 5 s) and nothing is refused.
    const numbers = await Promise.all(Array.from({ length: 40 }, (_, i) => (i % 2 ? a : b).storage.write((tx) => addMessage(tx, 'r', `m${i}`))));
    expect([...numbers].sort((x, y) => x - y)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(await b.storage.read((q) => messageNumbers(q, 'r'))).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  it("tells the other app after commit (a hint, never the app's own), and nothing for a rolled-back write", async () => {
    await twoApps();
    const atB: ChangeHint[] = [];
    const atA: ChangeHint[] = [];
    b.storage.onRemoteChange((h) => atB.push(h));
    a.storage.onRemoteChange((h) => atA.push(h));
    await a.storage.write(async (tx) => {
      await addMessage(tx, 'r', 'dropped');
      throw new Error('rolled back');
    }).catch(() => undefined);
    const number = await a.storage.write((tx) => addMessage(tx, 'r', 'hello B'));
    await waitUntil(() => atB.length > 0, 15_000, "A's write heard at B (PostgreSQL NOTIFY)");
    expect(atB).toEqual([{ place: 'acme', type: 'message.created', roomId: 'r', number, remote: true }]);
    // B's own write reaches A, not B itself.
    await b.storage.write((tx) => addMessage(tx, 'r', 'hello A'));
    await waitUntil(() => atA.length > 0, 15_000, "B's write heard at A (PostgreSQL NOTIFY)");
    expect(atA).toEqual([{ place: 'acme', type: 'message.created', roomId: 'r', number: number + 1, remote: true }]);
    expect(atB).toHaveLength(1);
  });

  it('stamps a write with the database server clock (its transaction time), the same source on every machine', async () => {
    await twoApps();
    for (const app of [a, b]) {
      const { stamp, server } = await app.storage.write(async (tx) => ({
        stamp: tx.now,
        server: (await tx.get<{ t: string }>(`SELECT to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS t`))!.t,
      }));
      expect(stamp).toBe(server);
    }
  });

  /** A write on A that B beats for its first `lost` attempts: A read the room, then B's message commits, then A's numbering collides. */
  function writeBeaten(on: PostgresStorage, lost: number): { written: Promise<number>; attempts: () => number } {
    let attempts = 0;
    const written = on.write(async (tx) => {
      attempts += 1;
      await tx.get('SELECT next_message_number FROM rooms WHERE room_id = ?', 'r');
      if (attempts <= lost) await b.storage.write((btx) => addMessage(btx, 'r', `B's ${attempts}`));
      return addMessage(tx, 'r', "A's");
    });
    return { written, attempts: () => attempts };
  }

  it('a write another app beats twelve times in a row still commits: it gives up only after 10 tries and 5 s', async () => {
    await twoApps();
    const { written, attempts } = writeBeaten(a.storage, 12);
    const number = await written;
    expect(attempts()).toBe(13);
    expect(number).toBe(13);
    expect(await a.storage.read((q) => messageNumbers(q, 'r'))).toEqual(Array.from({ length: 13 }, (_, i) => i + 1));
  });

  it('a write beaten every time gives up with write_conflict once it tried 10 times and its time is up, writing nothing', async () => {
    const url = await twoApps();
    // A third app on the team's database with a short time budget, so the test does not wait 5 s.
    const short = new PostgresStorage({ place: 'acme', url, bus: new EventBus(), writeConflictBudgetMs: 300 });
    await short.ready();
    try {
      const { written, attempts } = writeBeaten(short, Infinity);
      const failed = await written.catch((error: unknown) => error);
      expect(failed).toBeInstanceOf(WriteConflictError);
      expect((failed as WriteConflictError).code).toBe('write_conflict');
      expect(attempts()).toBeGreaterThanOrEqual(10);
      const texts = await b.storage.read((q) => q.all<{ text: string }>('SELECT text FROM messages WHERE room_id = ?', 'r'));
      expect(texts.map((t) => t.text)).not.toContain("A's");
      expect(texts).toHaveLength(attempts());
    } finally {
      await short.close();
    }
  });
});
