// Migration 15 (issue 34 item 2): a person's @all answered one agent at a time. Each room says
// how its broadcasts are answered (reply_to_all: 'in_turn' | 'all_at_once', checked by the app,
// not by a CHECK, so a new value costs no migration); a broadcast answered in turn keeps its
// order, decided once when it is posted (broadcast_turns, one row per agent in the order), and
// when each agent's wait was handed the broadcast (handed_at), so it is handed once.

export const migration015 = `
ALTER TABLE rooms ADD COLUMN reply_to_all TEXT NOT NULL DEFAULT 'in_turn';
CREATE TABLE broadcast_turns (
  room_id TEXT NOT NULL,
  message_number INTEGER NOT NULL,
  agent_key TEXT NOT NULL,
  position INTEGER NOT NULL,
  handed_at TEXT,
  PRIMARY KEY (room_id, message_number, agent_key),
  FOREIGN KEY (room_id, message_number) REFERENCES messages(room_id, number) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
CREATE INDEX broadcast_turns_agent ON broadcast_turns (room_id, agent_key, handed_at);
`;
