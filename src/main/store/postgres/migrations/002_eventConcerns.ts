// Migration 2 (issue 18), PostgreSQL twin of SQLite's 002_eventConcerns: who a system event
// concerns, recorded with the event, so routing wakes only those agents.
const T = 'TEXT COLLATE "C"';

export const pgMigration002 = `
CREATE TABLE event_concerns (
  room_id ${T} NOT NULL,
  message_number BIGINT NOT NULL,
  agent_key ${T} NOT NULL,
  role ${T} NOT NULL CHECK (role IN ('proposer','holder','reviewer','assignee','renamed','removed')),
  task_number BIGINT,
  PRIMARY KEY (room_id, message_number, agent_key),
  FOREIGN KEY (room_id, message_number) REFERENCES messages(room_id, number) ON DELETE CASCADE
);
`;
