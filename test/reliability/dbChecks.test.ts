// The consistency checks the crash and load tests rely on must see what they claim to:
// each kind of half-written state, made by hand in a copy of a real store, is reported.
// A check that passed everything would make those tests prove nothing.
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned } from '../support';
import { consistencyProblems, integrityProblems, storeSnapshot, type Db } from './lib/dbChecks';
import { FUZZ_ROOM, startFuzzWorld, type FuzzWorld } from './lib/fuzzWorld';
import { rawDbOf } from '../support/storage';

let world: FuzzWorld;
beforeAll(async () => {
  world = await startFuzzWorld();
  await world.app.core.store.drain();
}, 60_000);
afterAll(async () => {
  await world?.close();
  await cleanupSpawned();
});

/** A private in-memory copy of the seeded store, changed by `damage`. */
function damagedCopy(damage: (db: Db) => void): Db {
  const bytes = rawDbOf(world.app.core.store).serialize();
  // Header bytes 18–19 say "WAL"; an in-memory copy must be a plain rollback-journal file.
  bytes[18] = 1;
  bytes[19] = 1;
  const copy = new Database(bytes);
  copy.pragma('foreign_keys = OFF');
  damage(copy);
  return copy;
}

describe('the store consistency checks', () => {
  it('find nothing wrong in a store the app wrote', () => {
    const db = rawDbOf(world.app.core.store);
    expect([...integrityProblems(db), ...consistencyProblems(db)]).toEqual([]);
  });

  const damages: Array<[string, (db: Db) => void, RegExp]> = [
    ['a message missing from the middle', (db) => db.prepare('DELETE FROM messages WHERE room_id = ? AND number = 4').run(FUZZ_ROOM), /messages has .* rows, highest/],
    ['a counter that moved back (a number would be reused)', (db) => db.prepare('UPDATE rooms SET next_message_number = next_message_number - 1 WHERE room_id = ?').run(FUZZ_ROOM), /next_message_number/],
    ['a task without its creation event', (db) => db.prepare("DELETE FROM messages WHERE room_id = ? AND text LIKE '% proposed task_3: %'").run(FUZZ_ROOM), /task_3: 1 status changes but 0 system events/],
    ['a status change without its history row', (db) => db.prepare("UPDATE tasks SET status = 'in_review' WHERE room_id = ? AND number = 1").run(FUZZ_ROOM), /task_1: status in_review but history ends at in_progress/],
    ['a held task without its work lease', (db) => db.prepare("DELETE FROM task_leases WHERE room_id = ? AND task_number = 1 AND kind = 'work'").run(FUZZ_ROOM), /task_1: held \(in_progress\) with 0 active work leases/],
    ['a lease held by someone other than the assignee', (db) => db.prepare("UPDATE task_leases SET agent_key = 'someone/else' WHERE room_id = ? AND task_number = 1").run(FUZZ_ROOM), /task_1: work lease holder someone\/else is not the assignee/],
    ['an accepted task that still has an assignee', (db) => db.prepare("UPDATE tasks SET status = 'accepted' WHERE room_id = ? AND number = 1").run(FUZZ_ROOM), /task_1: accepted but holds an active work lease/],
    ['a worker session without its join event', (db) => db.prepare("DELETE FROM messages WHERE room_id = ? AND text = 'Bay joined the room.'").run(FUZZ_ROOM), /session "Bay" has no join event/],
    ['a message missing from the search index', (db) => {
      // A message stored without its index entry (as if the trigger had not run with it).
      db.exec('DROP TRIGGER messages_fts_insert');
      db.prepare(
        `INSERT INTO messages (room_id, number, kind, source, sender, text, created_at)
         SELECT room_id, next_message_number, 'message', 'human', 'Ada', 'not indexed', 'x' FROM rooms WHERE room_id = ?`,
      ).run(FUZZ_ROOM);
      db.prepare('UPDATE rooms SET next_message_number = next_message_number + 1 WHERE room_id = ?').run(FUZZ_ROOM);
    }, /messages_fts has \d+ rows for \d+ messages/],
  ];
  for (const [what, damage, reported] of damages) {
    it(`report ${what}`, () => {
      const copy = damagedCopy(damage);
      const problems = [...integrityProblems(copy), ...consistencyProblems(copy)];
      copy.close();
      expect(problems.join('\n')).toMatch(reported);
    });
  }

  it('tell a changed store from an unchanged one', () => {
    const before = storeSnapshot(rawDbOf(world.app.core.store));
    const copy = damagedCopy(() => undefined);
    expect(storeSnapshot(copy)).toBe(before);
    copy.prepare("UPDATE rooms SET next_task_number = next_task_number + 1 WHERE room_id = ?").run(FUZZ_ROOM);
    expect(storeSnapshot(copy)).not.toBe(before);
    copy.close();
  });
});
