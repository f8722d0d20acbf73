// Migration 2 (issue 18): who a system event concerns, recorded with the event when it is
// posted, so routing wakes only those agents (mcp-tools.md §5.3 rows 4 and 4b) and never
// has to parse event text. Events posted before this migration concern no one: they are
// history by the time the app is updated, and every agent re-registers after a restart.

export const migration002 = `
CREATE TABLE event_concerns (
  room_id TEXT NOT NULL,
  message_number INTEGER NOT NULL,
  agent_key TEXT NOT NULL,
  role TEXT NOT NULL CHECK (role IN ('proposer','holder','reviewer','assignee','renamed','removed')),
  task_number INTEGER,
  PRIMARY KEY (room_id, message_number, agent_key),
  FOREIGN KEY (room_id, message_number) REFERENCES messages(room_id, number) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;
`;
