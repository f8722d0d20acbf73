// Migration 14 (issue 34): like SQLite's 011, whom a person's message that names nobody wakes,
// decided once when it is posted, so every machine of the team reads the same answer; and why
// a managed agent's turn ended without a room message (no_replies).
const T = 'TEXT COLLATE "C"';

export const pgMigration014 = `
ALTER TABLE messages ADD COLUMN routed_to TEXT;
CREATE TABLE no_replies (
  room_id ${T} NOT NULL,
  message_number BIGINT NOT NULL,
  agent_key ${T} NOT NULL,
  reason ${T} NOT NULL,
  created_at ${T} NOT NULL,
  PRIMARY KEY (room_id, message_number, agent_key),
  FOREIGN KEY (room_id, message_number) REFERENCES messages(room_id, number) ON DELETE CASCADE
);
`;
