// Migration 10 (issue 32 item 14): what the poll fallback (changePoll.ts) needs to find the rooms
// that changed without reading every room. Each row a poll watches is stamped with the id of the
// transaction that last changed it (xid8, PostgreSQL 13+), by a trigger, so no app version can
// forget to; an index on each stamp lets a poll read only the rows changed since its last look.
// A deleted room leaves its id in room_deletions. Only the columns a poll reacts to stamp a row
// (an agent's last_seen_at alone does not). That part is PostgreSQL's only; like SQLite's 010 it
// also indexes the people who posted in a room (an agent may not take a person's name).

/** Stamps the row with the writing transaction (the top-level one, also inside a savepoint). */
const noteChange = `
CREATE FUNCTION letagents_note_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.changed_xid := pg_current_xact_id();
  RETURN NEW;
END $$;
CREATE FUNCTION letagents_note_deletion() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO room_deletions (room_id) VALUES (OLD.room_id);
  RETURN OLD;
END $$;`;

/** The column, its index, and the triggers that stamp `table` on insert and on a change of `columns` (any change when null). */
function tracked(table: string, columns: string[] | null): string {
  const when = columns
    ? ` WHEN ((${columns.map((c) => `OLD.${c}`).join(', ')}) IS DISTINCT FROM (${columns.map((c) => `NEW.${c}`).join(', ')}))`
    : '';
  return `
ALTER TABLE ${table} ADD COLUMN changed_xid xid8;
CREATE INDEX ${table}_changed ON ${table} (changed_xid);
CREATE TRIGGER ${table}_added BEFORE INSERT ON ${table} FOR EACH ROW EXECUTE FUNCTION letagents_note_change();
CREATE TRIGGER ${table}_changed BEFORE UPDATE ON ${table} FOR EACH ROW${when} EXECUTE FUNCTION letagents_note_change();`;
}

export const pgMigration010 = `
CREATE INDEX messages_people ON messages (room_id, sender) WHERE source = 'human';
CREATE TABLE room_deletions (
  room_id TEXT COLLATE "C" NOT NULL,
  deleted_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX room_deletions_xid ON room_deletions (deleted_xid);
${noteChange}
${tracked('rooms', null)}
${tracked('tasks', ['number', 'status', 'updated_at'])}
${tracked('agent_sessions', ['updated_at', 'binding_epoch', 'host_id', 'released_at', 'ended_at'])}
${tracked('room_facts', ['number', 'updated_at'])}
${tracked('human_requests', ['number', 'updated_at'])}
${tracked('needs_you_alerts', ['number', 'updated_at'])}
CREATE TRIGGER rooms_deleted AFTER DELETE ON rooms FOR EACH ROW EXECUTE FUNCTION letagents_note_deletion();
`;
