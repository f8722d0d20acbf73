// Migration 15 (issue 34 item 2): like SQLite's 015, how a room's broadcasts are answered
// (reply_to_all) and each broadcast's turn order (broadcast_turns), in the team's database so
// every machine of the team reads the same order.
const T = 'TEXT COLLATE "C"';

export const pgMigration015 = `
ALTER TABLE rooms ADD COLUMN reply_to_all ${T} NOT NULL DEFAULT 'in_turn';
CREATE TABLE broadcast_turns (
  room_id ${T} NOT NULL,
  message_number BIGINT NOT NULL,
  agent_key ${T} NOT NULL,
  position BIGINT NOT NULL,
  handed_at ${T},
  PRIMARY KEY (room_id, message_number, agent_key),
  FOREIGN KEY (room_id, message_number) REFERENCES messages(room_id, number) ON DELETE CASCADE
);
CREATE INDEX broadcast_turns_agent ON broadcast_turns (room_id, agent_key, handed_at);
`;
