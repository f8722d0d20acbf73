// Migration 4 (issue 14): delivery you can see. Receipts as spans of message numbers per
// agent session (never a row per message × agent), the token meter per agent session and
// day, and the "Needs you" items the app raises itself (unanswered messages, untouched
// tasks, a paused loop, a used-up budget), numbered per room like requests.

export const migration004 = `
-- Every message in [first_number, last_number] that routes to the session was delivered to
-- it (returned by read_messages or wait_for_messages) at delivered_at; a span folded from
-- several deliveries holds the latest of their times ("by then"). The lowest span is the
-- session's cursor, the others the exceptions above it; what no span covers is not delivered.
CREATE TABLE delivery_spans (
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  session_id TEXT NOT NULL,
  first_number INTEGER NOT NULL,
  last_number INTEGER NOT NULL CHECK (last_number >= first_number),
  delivered_at TEXT NOT NULL,
  deliveries INTEGER NOT NULL DEFAULT 1 CHECK (deliveries >= 1),
  PRIMARY KEY (room_id, session_id, first_number)
) STRICT, WITHOUT ROWID;

-- UTF-8 bytes of the tool results sent to each agent session, per UTC day ('' for calls
-- made without an agent session).
CREATE TABLE token_meter (
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  session_id TEXT NOT NULL,
  day TEXT NOT NULL,
  bytes INTEGER NOT NULL DEFAULT 0,
  results INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (room_id, session_id, day)
) STRICT, WITHOUT ROWID;

ALTER TABLE rooms ADD COLUMN next_alert_number INTEGER NOT NULL DEFAULT 1;

-- One item per subject, ever (a message not picked up by one session, a task handed to one,
-- one paused loop, one day's room budget, one budget hold of a managed agent).
CREATE TABLE needs_you_alerts (
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('unanswered','idle_task','loop','room_budget','agent_budget')),
  subject TEXT NOT NULL,
  session_id TEXT,
  message_number INTEGER,
  task_number INTEGER,
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  detail_json TEXT NOT NULL DEFAULT '{}',
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','resolved','dismissed')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (room_id, number),
  UNIQUE (room_id, kind, subject)
) STRICT;
CREATE INDEX needs_you_alerts_open ON needs_you_alerts (status, room_id, kind);
`;
