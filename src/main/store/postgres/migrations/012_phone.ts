// Migration 12 (issue 37), PostgreSQL twin of SQLite's 012_phone: how each approval's answer
// travelled, and the paired phones (a team database never uses them; the schemas stay alike).
const T = 'TEXT COLLATE "C"';

export const pgMigration012 = `
ALTER TABLE approvals ADD COLUMN decided_via ${T};
ALTER TABLE approvals ADD COLUMN delivered_at ${T};
ALTER TABLE approvals ADD COLUMN delivery_error ${T};
ALTER TABLE approvals ADD COLUMN outcome ${T} CHECK (outcome IN ('went_on','expired','session_ended'));
ALTER TABLE approvals ADD COLUMN outcome_at ${T};
ALTER TABLE approvals ADD COLUMN cleared_at ${T};

CREATE TABLE phone_devices (
  device_id ${T} PRIMARY KEY,
  name ${T} NOT NULL,
  key_hash ${T} NOT NULL,
  paired_at ${T} NOT NULL,
  paired_from ${T} NOT NULL,
  last_seen_at ${T},
  last_seen_from ${T}
);
CREATE UNIQUE INDEX phone_devices_key ON phone_devices (key_hash);
`;
