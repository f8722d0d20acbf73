// Migration 12 (issue 37): away from the desk. Each approval keeps how its answer travelled —
// from which screen it came (decided_via: a paired phone's name; null: this computer's window),
// when it reached the agent's process (delivered_at), why it could not (delivery_error, while
// the request stays open) and how it ended (outcome: the agent went on, the request expired or
// the session ended), and when the person cleared it from the queue. `phone_devices` holds the
// paired phones: only a hash of each device key is kept.

export const migration012 = `
ALTER TABLE approvals ADD COLUMN decided_via TEXT;
ALTER TABLE approvals ADD COLUMN delivered_at TEXT;
ALTER TABLE approvals ADD COLUMN delivery_error TEXT;
ALTER TABLE approvals ADD COLUMN outcome TEXT CHECK (outcome IN ('went_on','expired','session_ended'));
ALTER TABLE approvals ADD COLUMN outcome_at TEXT;
ALTER TABLE approvals ADD COLUMN cleared_at TEXT;

CREATE TABLE phone_devices (
  device_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL,
  paired_at TEXT NOT NULL,
  paired_from TEXT NOT NULL,
  last_seen_at TEXT,
  last_seen_from TEXT
) STRICT;
CREATE UNIQUE INDEX phone_devices_key ON phone_devices (key_hash);
`;
