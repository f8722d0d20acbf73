// Migration 16 (issue 35 item 1's leftover): the poll fallback (changePoll.ts) notices a change of
// a room's managed agents (joined, paused or resumed, moved to another machine's app, removed) as
// it notices a task's, with migration 10's design: a trigger stamps the changed managed_members
// row with its transaction (changed_xid, indexed), and a removed one leaves its room's id in
// member_departures. Only the columns a roster shows stamp a row (an app saying "still mine" at
// its start, which rewrites updated_at alone, does not). A pass on an @all (a no_replies row, issue
// 34 item 2) is stamped the same way, so a poll wakes the next agent's turn at once rather than at
// the turn's deadline. PostgreSQL's only, like 010's tracking.

export const pgMigration016 = `
ALTER TABLE managed_members ADD COLUMN changed_xid xid8;
CREATE INDEX managed_members_changed ON managed_members (changed_xid);
CREATE TRIGGER managed_members_added BEFORE INSERT ON managed_members FOR EACH ROW EXECUTE FUNCTION letagents_note_change();
CREATE TRIGGER managed_members_changed BEFORE UPDATE ON managed_members FOR EACH ROW
  WHEN ((OLD.agent_id, OLD.host_id, OLD.host_label, OLD.takes_turns) IS DISTINCT FROM (NEW.agent_id, NEW.host_id, NEW.host_label, NEW.takes_turns))
  EXECUTE FUNCTION letagents_note_change();
CREATE TABLE member_departures (
  room_id TEXT COLLATE "C" NOT NULL,
  departed_xid xid8 NOT NULL DEFAULT pg_current_xact_id()
);
CREATE INDEX member_departures_xid ON member_departures (departed_xid);
CREATE FUNCTION letagents_note_departure() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO member_departures (room_id) VALUES (OLD.room_id);
  RETURN OLD;
END $$;
CREATE TRIGGER managed_members_left AFTER DELETE ON managed_members FOR EACH ROW EXECUTE FUNCTION letagents_note_departure();
ALTER TABLE no_replies ADD COLUMN changed_xid xid8;
CREATE INDEX no_replies_changed ON no_replies (changed_xid);
CREATE TRIGGER no_replies_added BEFORE INSERT OR UPDATE ON no_replies FOR EACH ROW EXECUTE FUNCTION letagents_note_change();
`;
