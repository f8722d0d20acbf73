// The poll fallback's one query (issues 29 and 32), on a real team database: it returns only the
// rooms that changed since the last poll (found by the transactions that wrote them, so a write
// still running during one poll is seen by the next), at most 200 a poll (more is one re-check),
// none for a quiet team; a few new messages are hints of that room, many (or a new, changed or
// removed room) one re-check of the team; a forged change stamp or counter does not make it
// read or wake anything again and again. Rows are written as another machine's app would leave them.
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
    const uncountable: string[] = [];
    const poll = new ChangePoll({
      query: async (text, values) => {
        const result = await db.query(text, values);
        // Each poll ends with its window row (where the next one starts): the rooms are the others.
        rowsReturned += result.rows.length - 1;
        return result;
      },
      onMessage: (roomId, number) => messages.push(`${roomId}#${number}`),
      onRecheck: () => rechecks++,
      onTurn: (roomId, first, last) => messages.push(`${roomId} turn ${first}-${last}`),
      onUncountable: (roomId, column, text) => void uncountable.push(`${roomId} ${column} ${text}`),
    });
    /** One poll: the rows it returned, the hints and re-checks it gave. */
    const once = async () => {
      const [rows, hints, before] = [rowsReturned, messages.length, rechecks];
      await poll.poll();
      return { rows: rowsReturned - rows, hints: messages.slice(hints), rechecks: rechecks - before };
    };

    // The first poll learns the rooms' cursors and re-checks the team (hints may have been missed).
    expect(await once()).toEqual({ rows: 205, hints: [], rechecks: 1 });
    // Quiet: no row, no hint, no re-check.
    expect(await once()).toEqual({ rows: 0, hints: [], rechecks: 0 });
    expect(await once()).toEqual({ rows: 0, hints: [], rechecks: 0 });

    // Three messages in one room (a send bumps the room's counter): three hints of that room only.
    await db.query("UPDATE rooms SET next_message_number = next_message_number + 3 WHERE room_id = 'room-007'");
    expect(await once()).toEqual({ rows: 1, hints: ['room-007#1', 'room-007#2', 'room-007#3'], rechecks: 0 });
    // Two agents pass on @all number 2 (no_replies rows, a pass written again): one turn hint of
    // that room, no re-check, and nothing more the poll after.
    await db.query(
      `INSERT INTO messages (room_id, number, kind, source, sender, text, created_at)
       SELECT 'room-007', n, 'message', 'human', 'Ann', '@all hi', 'x' FROM generate_series(1, 3) n`,
    );
    await once();
    await db.query(
      `INSERT INTO no_replies (room_id, message_number, agent_key, reason, created_at)
       VALUES ('room-007', 2, 'ash', 'passed', 'x'), ('room-007', 2, 'birch', 'passed', 'x')`,
    );
    expect(await once()).toEqual({ rows: 1, hints: ['room-007 turn 2-2'], rechecks: 0 });
    expect(await once()).toEqual({ rows: 0, hints: [], rechecks: 0 });
    await db.query("UPDATE no_replies SET reason = 'passed', created_at = 'y' WHERE room_id = 'room-007' AND agent_key = 'ash'");
    expect(await once()).toEqual({ rows: 1, hints: ['room-007 turn 2-2'], rechecks: 0 });
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

    // A send still running during a poll (its transaction began first) is seen by the next one, once.
    const other = new pg.Client({ connectionString: cluster.url(db.database!) });
    await other.connect();
    try {
      await other.query('BEGIN');
      await other.query("UPDATE rooms SET next_message_number = next_message_number + 1 WHERE room_id = 'room-011'");
      await db.query("UPDATE rooms SET next_message_number = next_message_number + 1 WHERE room_id = 'room-012'");
      expect(await once()).toEqual({ rows: 1, hints: ['room-012#1'], rechecks: 0 });
      await other.query('COMMIT');
    } finally {
      await other.end();
    }
    expect(await once()).toEqual({ rows: 1, hints: ['room-011#1'], rechecks: 0 });
    expect(await once()).toEqual({ rows: 0, hints: [], rechecks: 0 });

    // More rooms changed at once than a poll examines: one re-check, then quiet again.
    await db.query("UPDATE rooms SET display_name = display_name || '!' WHERE room_id LIKE 'room-%'");
    expect(await once()).toMatchObject({ hints: [], rechecks: 1 });
    expect(await once()).toEqual({ rows: 0, hints: [], rechecks: 0 });

    // Forged change stamps: far in the future (not read until the server's transactions reach
    // them), and one in the past (never read again); a forged counter beyond 2^53 is reported
    // once and wakes nothing.
    // (The table's owner can turn the stamping trigger off for its own writes.)
    await db.query(`BEGIN; ALTER TABLE rooms DISABLE TRIGGER rooms_changed;
      UPDATE rooms SET changed_xid = '999999999999' WHERE room_id = 'room-013';
      UPDATE rooms SET changed_xid = '3' WHERE room_id = 'room-014';
      ALTER TABLE rooms ENABLE TRIGGER rooms_changed; COMMIT`);
    expect(await once()).toEqual({ rows: 0, hints: [], rechecks: 0 });
    await db.query("UPDATE rooms SET next_message_number = 9007199254740993 WHERE room_id = 'room-015'");
    expect(await once()).toEqual({ rows: 1, hints: [], rechecks: 0 });
    expect(uncountable).toEqual(['room-015 next_message_number 9007199254740993']);
    expect(await once()).toEqual({ rows: 0, hints: [], rechecks: 0 });
  });
});
