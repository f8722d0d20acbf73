// Migration 17, PostgreSQL twin of SQLite's 017_approvalWaits: a managed agent's row says when it
// waits for its owner's approval (which tool, whose, since when). Its trigger now stamps the row
// (changed_xid, migration 16) when that changes too, so the poll fallback shows it and its end.
const T = 'TEXT COLLATE "C"';

export const pgMigration017 = `
ALTER TABLE managed_members ADD COLUMN approval_tool ${T};
ALTER TABLE managed_members ADD COLUMN approval_person ${T};
ALTER TABLE managed_members ADD COLUMN approval_since ${T};
DROP TRIGGER managed_members_changed ON managed_members;
CREATE TRIGGER managed_members_changed BEFORE UPDATE ON managed_members FOR EACH ROW
  WHEN ((OLD.agent_id, OLD.host_id, OLD.host_label, OLD.takes_turns, OLD.approval_tool, OLD.approval_person, OLD.approval_since)
    IS DISTINCT FROM (NEW.agent_id, NEW.host_id, NEW.host_label, NEW.takes_turns, NEW.approval_tool, NEW.approval_person, NEW.approval_since))
  EXECUTE FUNCTION letagents_note_change();
`;
