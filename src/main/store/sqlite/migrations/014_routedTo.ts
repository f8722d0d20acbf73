// Migration 14 (issue 34): whom a person's message that names nobody wakes, decided once when
// it is posted (domain/activation/untagged.ts) and stored with it, so every wait, push and
// managed turn, on every machine and later, reads the same answer. JSON; null for every other
// message (and for those posted before: today's rule). Also why a managed agent's turn ended
// without a room message, per message that started it (no_replies), for its receipts.

export const migration014 = `
ALTER TABLE messages ADD COLUMN routed_to TEXT;
CREATE TABLE no_replies (
  room_id TEXT NOT NULL,
  message_number INTEGER NOT NULL,
  agent_key TEXT NOT NULL,
  reason TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (room_id, message_number, agent_key),
  FOREIGN KEY (room_id, message_number) REFERENCES messages(room_id, number) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
`;
