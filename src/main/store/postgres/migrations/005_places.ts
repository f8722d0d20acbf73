// Migration 5 (issue 12), PostgreSQL twin of SQLite's 005_places: binding epoch and holding
// host of worker sessions, app heartbeats, per-reader read markers and dismissals, and the
// place of MCP clients' saved rooms (kept on each computer; empty in a team database).
const T = 'TEXT COLLATE "C"';

export const pgMigration005 = `
ALTER TABLE agent_sessions ADD COLUMN binding_epoch BIGINT NOT NULL DEFAULT 0;
ALTER TABLE agent_sessions ADD COLUMN host_id ${T};
ALTER TABLE agent_sessions ADD COLUMN host_label ${T};
ALTER TABLE agent_sessions ADD COLUMN released_at ${T};

CREATE TABLE app_hosts (
  host_id ${T} PRIMARY KEY,
  host_label ${T} NOT NULL,
  heard_at ${T} NOT NULL
);

ALTER TABLE room_reads ADD COLUMN reader_id ${T} NOT NULL DEFAULT '';
ALTER TABLE room_reads DROP CONSTRAINT room_reads_pkey;
ALTER TABLE room_reads ADD PRIMARY KEY (room_id, reader_id);

ALTER TABLE needs_you_dismissals ADD COLUMN reader_id ${T} NOT NULL DEFAULT '';
ALTER TABLE needs_you_dismissals DROP CONSTRAINT needs_you_dismissals_pkey;
ALTER TABLE needs_you_dismissals ADD PRIMARY KEY (room_id, item_kind, number, reader_id);

ALTER TABLE client_room_sessions ADD COLUMN place ${T} NOT NULL DEFAULT 'local';
ALTER TABLE client_room_sessions DROP CONSTRAINT client_room_sessions_pkey;
ALTER TABLE client_room_sessions DROP CONSTRAINT client_room_sessions_room_id_fkey;
ALTER TABLE client_room_sessions ADD PRIMARY KEY (client_key, place, room_id);
`;
