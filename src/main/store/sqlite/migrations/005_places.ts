// Migration 5 (issue 12): rooms shared across machines. The same rule on both engines:
// - a worker session's binding epoch, bumped by every takeover and by a person ending the
//   session, and checked inside every fenced write, so a connection replaced on another
//   machine stores nothing more; the app (host) holding the session, and when it let go;
// - app_hosts: each app's heartbeat, so a session whose app went silent shows offline;
// - the per-person state of a room is keyed by its reader (this computer: ''; a team
//   database: the app's host id), so one person reading or dismissing changes nothing for
//   the others; the MCP clients' saved rooms carry their place and live on this computer.
// (Number 4 is issue 14's delivery migration.)

export const migration005 = `
ALTER TABLE agent_sessions ADD COLUMN binding_epoch INTEGER NOT NULL DEFAULT 0;
ALTER TABLE agent_sessions ADD COLUMN host_id TEXT;
ALTER TABLE agent_sessions ADD COLUMN host_label TEXT;
ALTER TABLE agent_sessions ADD COLUMN released_at TEXT;

CREATE TABLE app_hosts (
  host_id TEXT PRIMARY KEY,
  host_label TEXT NOT NULL,
  heard_at TEXT NOT NULL
) STRICT;

CREATE TABLE room_reads_005 (
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  reader_id TEXT NOT NULL DEFAULT '',
  last_read_number INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (room_id, reader_id)
) STRICT, WITHOUT ROWID;
INSERT INTO room_reads_005 (room_id, reader_id, last_read_number) SELECT room_id, '', last_read_number FROM room_reads;
DROP TABLE room_reads;
ALTER TABLE room_reads_005 RENAME TO room_reads;

CREATE TABLE needs_you_dismissals_005 (
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  item_kind TEXT NOT NULL CHECK (item_kind IN ('mention','review','blocked')),
  number INTEGER NOT NULL,
  reader_id TEXT NOT NULL DEFAULT '',
  dismissed_at TEXT NOT NULL,
  PRIMARY KEY (room_id, item_kind, number, reader_id)
) STRICT, WITHOUT ROWID;
INSERT INTO needs_you_dismissals_005 (room_id, item_kind, number, reader_id, dismissed_at)
  SELECT room_id, item_kind, number, '', dismissed_at FROM needs_you_dismissals;
DROP TABLE needs_you_dismissals;
ALTER TABLE needs_you_dismissals_005 RENAME TO needs_you_dismissals;

CREATE TABLE client_room_sessions_005 (
  client_key TEXT NOT NULL,
  place TEXT NOT NULL DEFAULT 'local',
  room_id TEXT NOT NULL,
  joined_via TEXT NOT NULL,
  last_message_id TEXT,
  last_seen_at TEXT NOT NULL,
  is_current INTEGER NOT NULL DEFAULT 0 CHECK (is_current IN (0,1)),
  PRIMARY KEY (client_key, place, room_id)
) STRICT;
INSERT INTO client_room_sessions_005 (client_key, place, room_id, joined_via, last_message_id, last_seen_at, is_current)
  SELECT client_key, 'local', room_id, joined_via, last_message_id, last_seen_at, is_current FROM client_room_sessions;
DROP TABLE client_room_sessions;
ALTER TABLE client_room_sessions_005 RENAME TO client_room_sessions;
`;
