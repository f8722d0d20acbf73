// Migration 4 (issue 14), PostgreSQL twin of SQLite's 004_delivery: receipt spans, the token
// meter, and the "Needs you" items the app raises itself.
const T = 'TEXT COLLATE "C"';

export const pgMigration004 = `
CREATE TABLE delivery_spans (
  room_id ${T} NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  session_id ${T} NOT NULL,
  first_number BIGINT NOT NULL,
  last_number BIGINT NOT NULL CHECK (last_number >= first_number),
  delivered_at ${T} NOT NULL,
  deliveries BIGINT NOT NULL DEFAULT 1 CHECK (deliveries >= 1),
  PRIMARY KEY (room_id, session_id, first_number)
);

CREATE TABLE token_meter (
  room_id ${T} NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  session_id ${T} NOT NULL,
  day ${T} NOT NULL,
  bytes BIGINT NOT NULL DEFAULT 0,
  results BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (room_id, session_id, day)
);

ALTER TABLE rooms ADD COLUMN next_alert_number BIGINT NOT NULL DEFAULT 1;

CREATE TABLE needs_you_alerts (
  room_id ${T} NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  number BIGINT NOT NULL,
  kind ${T} NOT NULL CHECK (kind IN ('unanswered','idle_task','loop','room_budget','agent_budget')),
  subject ${T} NOT NULL,
  session_id ${T},
  message_number BIGINT,
  task_number BIGINT,
  title ${T} NOT NULL,
  body ${T} NOT NULL,
  detail_json ${T} NOT NULL DEFAULT '{}',
  status ${T} NOT NULL DEFAULT 'open' CHECK (status IN ('open','resolved','dismissed')),
  created_at ${T} NOT NULL,
  updated_at ${T} NOT NULL,
  PRIMARY KEY (room_id, number),
  UNIQUE (room_id, kind, subject)
);
CREATE INDEX needs_you_alerts_open ON needs_you_alerts (status, room_id, kind);
`;
