// The poll fallback's one query (issue 29), on a real team database: it returns only the rooms
// that changed since the last poll, at most 200 a poll (the rest in the next), none for a quiet
// team; a few new messages are hints of that room, many (or a new, changed or removed room)
// one re-check of the team. Rows are written as another machine's app would leave them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { ChangePoll } from '../../../../src/main/store/postgres/changePoll';
import { migrateTeamDatabase } from '../../../../src/main/store/postgres/migrate';
import { pgTypes } from '../../../../src/main/store/postgres/pgTypes';
import { runPostgresSuites, startPostgres, type PgCluster } from '../../../support/postgres';

describe.skipIf(!runPostgresSuites)('the poll of what changed in a team', () => {
  let cluster: PgCluster;
  let db: pg.Client;

  beforeAll(async () => {
    cluster = await startPostgres();
    db = new pg.Client({ connectionString: await cluster.createDatabase(), types: pgTypes });
    await db.connect();
    await migrateTeamDatabase(db);
  });
  afterAll(async () => {
    await db?.end();
    cluster?.stop();
  });

  it('bounded per poll, nothing when quiet, message hints for a few new messages, a re-check for anything else', async () => {
    await db.query(
      `INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at)
       SELECT 'room-' || lpad(i::text, 3, '0'), 'named', 'Room ' || i, '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z' FROM generate_series(1, 205) i`,
    );
    const messages: string[] = [];
    let rechecks = 0;
    let rowsReturned = 0;
    const poll = new ChangePoll({
      query: async (text, values) => {
        const result = await db.query(text, values);
        rowsReturned += result.rows.length;
        return result;
      },
      onMessage: (roomId, number) => messages.push(`${roomId}#${number}`),
      onRecheck: () => rechecks++,
    });
    /** One poll: the rows it returned, the hints and re-checks it gave. */
    const once = async () => {
      const [rows, hints, before] = [rowsReturned, messages.length, rechecks];
      await poll.poll();
      return { rows: rowsReturned - rows, hints: messages.slice(hints), rechecks: rechecks - before };
    };

    // The first polls learn the rooms, 200 at a time, each a re-check (hints may have been missed).
    expect(await once()).toEqual({ rows: 200, hints: [], rechecks: 1 });
    expect(await once()).toEqual({ rows: 5, hints: [], rechecks: 1 });
    // Quiet: no row, no hint, no re-check.
    expect(await once()).toEqual({ rows: 0, hints: [], rechecks: 0 });
    expect(await once()).toEqual({ rows: 0, hints: [], rechecks: 0 });

    // Three messages in one room (a send bumps the room's counter): three hints of that room only.
    await db.query("UPDATE rooms SET next_message_number = next_message_number + 3 WHERE room_id = 'room-007'");
    expect(await once()).toEqual({ rows: 1, hints: ['room-007#1', 'room-007#2', 'room-007#3'], rechecks: 0 });
    // Twenty at once are more than a hint burst holds: one re-check instead.
    await db.query("UPDATE rooms SET next_message_number = next_message_number + 20 WHERE room_id = 'room-008'");
    expect(await once()).toEqual({ rows: 1, hints: [], rechecks: 1 });
    // A task added, then one changed (its updated_at older than the newest: a transaction that began earlier).
    await db.query(
      `INSERT INTO tasks (room_id, number, status, title, created_by, created_at, updated_at)
       VALUES ('room-009', 1, 'proposed', 'a', 'x', '2026-01-01T00:00:05.000Z', '2026-01-01T00:00:05.000Z'),
              ('room-009', 2, 'proposed', 'b', 'x', '2026-01-01T00:00:09.000Z', '2026-01-01T00:00:09.000Z')`,
    );
    expect(await once()).toEqual({ rows: 1, hints: [], rechecks: 1 });
    await db.query("UPDATE tasks SET status = 'accepted', updated_at = '2026-01-01T00:00:07.000Z' WHERE room_id = 'room-009' AND number = 1");
    expect(await once()).toEqual({ rows: 1, hints: [], rechecks: 1 });
    // A room removed, and a new one: each a re-check.
    await db.query("DELETE FROM rooms WHERE room_id = 'room-010'");
    expect(await once()).toEqual({ rows: 1, hints: [], rechecks: 1 });
    await db.query("INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at) VALUES ('room-new', 'named', 'New', 'x', 'x')");
    expect(await once()).toEqual({ rows: 1, hints: [], rechecks: 1 });
    expect(await once()).toEqual({ rows: 0, hints: [], rechecks: 0 });
  });
});
