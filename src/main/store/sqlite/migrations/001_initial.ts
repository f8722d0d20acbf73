// Migration 1: the whole initial schema (data-model.md §9). STRICT tables, CHECKs for
// enums, per-room counters for numbering, FTS5 over message text and sender.

const TASK_STATUS = `'proposed','accepted','assigned','in_progress','blocked','in_review','merged','done','cancelled'`;

export const migration001 = `
CREATE TABLE rooms (
  room_id TEXT PRIMARY KEY,
  kind TEXT NOT NULL CHECK (kind IN ('invite','repo','named')),
  display_name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  archived_at TEXT,
  pinned_at TEXT,
  next_message_number INTEGER NOT NULL DEFAULT 1,
  next_task_number INTEGER NOT NULL DEFAULT 1,
  next_fact_number INTEGER NOT NULL DEFAULT 1,
  next_request_number INTEGER NOT NULL DEFAULT 1,
  next_artifact_number INTEGER NOT NULL DEFAULT 1
) STRICT;

CREATE TABLE messages (
  rowid INTEGER PRIMARY KEY,
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  number INTEGER NOT NULL CHECK (number BETWEEN 1 AND 2147483647),
  kind TEXT NOT NULL CHECK (kind IN ('message','status','event')),
  source TEXT NOT NULL CHECK (source IN ('agent','human','system')),
  sender TEXT NOT NULL,
  text TEXT NOT NULL,
  reply_to_number INTEGER,
  thread_root_number INTEGER,
  agent_prompt_kind TEXT CHECK (agent_prompt_kind IN ('join','inline','auto')),
  publisher_agent_key TEXT,
  publisher_session_id TEXT,
  created_at TEXT NOT NULL,
  UNIQUE (room_id, number)
) STRICT;
CREATE INDEX messages_thread ON messages (room_id, thread_root_number, number) WHERE thread_root_number IS NOT NULL;

CREATE VIRTUAL TABLE messages_fts USING fts5(
  text, sender, content='messages', content_rowid='rowid', tokenize='unicode61 remove_diacritics 2'
);
CREATE TRIGGER messages_fts_insert AFTER INSERT ON messages
  WHEN NOT (new.agent_prompt_kind IS 'auto' AND trim(new.text) = '') BEGIN
  INSERT INTO messages_fts (rowid, text, sender) VALUES (new.rowid, new.text, new.sender);
END;
CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages
  WHEN NOT (old.agent_prompt_kind IS 'auto' AND trim(old.text) = '') BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text, sender) VALUES ('delete', old.rowid, old.text, old.sender);
END;
CREATE TRIGGER messages_fts_update AFTER UPDATE OF text, sender ON messages BEGIN
  INSERT INTO messages_fts (messages_fts, rowid, text, sender)
    SELECT 'delete', old.rowid, old.text, old.sender WHERE NOT (old.agent_prompt_kind IS 'auto' AND trim(old.text) = '');
  INSERT INTO messages_fts (rowid, text, sender)
    SELECT new.rowid, new.text, new.sender WHERE NOT (new.agent_prompt_kind IS 'auto' AND trim(new.text) = '');
END;

CREATE TABLE thread_participants (
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  root_number INTEGER NOT NULL,
  agent_key TEXT NOT NULL,
  PRIMARY KEY (room_id, root_number, agent_key)
) STRICT, WITHOUT ROWID;

CREATE TABLE attachments (
  room_id TEXT NOT NULL,
  message_number INTEGER NOT NULL,
  attachment_id TEXT NOT NULL,
  file_name TEXT NOT NULL,
  mime_type TEXT NOT NULL,
  size_bytes INTEGER NOT NULL,
  path TEXT NOT NULL,
  PRIMARY KEY (room_id, message_number, attachment_id),
  FOREIGN KEY (room_id, message_number) REFERENCES messages(room_id, number) ON DELETE CASCADE
) STRICT;

CREATE TABLE tasks (
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  number INTEGER NOT NULL CHECK (number BETWEEN 1 AND 2147483647),
  status TEXT NOT NULL CHECK (status IN (${TASK_STATUS})),
  title TEXT NOT NULL,
  description TEXT,
  created_by TEXT NOT NULL,
  created_by_agent_key TEXT,
  source_message_number INTEGER,
  assignee TEXT,
  assignee_agent_key TEXT,
  assignee_session_id TEXT,
  last_holder_agent_key TEXT,
  pr_url TEXT,
  workflow_artifacts_json TEXT NOT NULL DEFAULT '[]',
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (room_id, number)
) STRICT;
CREATE INDEX tasks_board ON tasks (room_id, status, number);

CREATE TABLE task_leases (
  lease_id TEXT PRIMARY KEY,
  room_id TEXT NOT NULL,
  task_number INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('work','review')),
  holder_label TEXT NOT NULL,
  agent_key TEXT,
  session_id TEXT,
  status TEXT NOT NULL CHECK (status IN ('active','released','handed_off','completed')),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  ended_at TEXT,
  FOREIGN KEY (room_id, task_number) REFERENCES tasks(room_id, number) ON DELETE CASCADE
) STRICT;
CREATE UNIQUE INDEX task_leases_one_active ON task_leases (room_id, task_number, kind) WHERE status = 'active';
CREATE INDEX task_leases_holder ON task_leases (agent_key) WHERE status = 'active';

CREATE TABLE task_events (
  room_id TEXT NOT NULL,
  task_number INTEGER NOT NULL,
  seq INTEGER NOT NULL,
  from_status TEXT,
  to_status TEXT NOT NULL,
  actor_label TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (room_id, task_number, seq),
  FOREIGN KEY (room_id, task_number) REFERENCES tasks(room_id, number) ON DELETE CASCADE
) STRICT;

CREATE TABLE workers (
  worker_id TEXT PRIMARY KEY,
  registration_key_hash TEXT NOT NULL UNIQUE,
  display_name TEXT NOT NULL,
  agent_key TEXT NOT NULL UNIQUE,
  owner_label TEXT NOT NULL,
  ide_label TEXT NOT NULL,
  runtime TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;

CREATE TABLE agent_sessions (
  session_id TEXT PRIMARY KEY,
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  worker_id TEXT REFERENCES workers(worker_id),
  session_kind TEXT NOT NULL CHECK (session_kind IN ('worker','controller')),
  display_name TEXT NOT NULL,
  name_key TEXT NOT NULL,
  actor_label TEXT NOT NULL,
  agent_key TEXT NOT NULL,
  owner_label TEXT NOT NULL,
  ide_label TEXT NOT NULL,
  runtime TEXT NOT NULL,
  repo_branch TEXT,
  status TEXT NOT NULL DEFAULT 'idle' CHECK (status IN ('idle','working','reviewing','blocked')),
  status_text TEXT NOT NULL DEFAULT '',
  reasoning_json TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  last_seen_at TEXT NOT NULL,
  ended_at TEXT,
  ended_by TEXT CHECK (ended_by IN ('disconnect','person','connection_closed'))
) STRICT;
CREATE UNIQUE INDEX agent_sessions_worker_room ON agent_sessions (worker_id, room_id) WHERE worker_id IS NOT NULL;
CREATE UNIQUE INDEX agent_sessions_room_name ON agent_sessions (room_id, name_key) WHERE worker_id IS NOT NULL OR ended_at IS NULL;
CREATE INDEX agent_sessions_room ON agent_sessions (room_id, agent_key);

CREATE TABLE room_facts (
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  client_id TEXT NOT NULL,
  category TEXT NOT NULL CHECK (category IN ('goal','decision','constraint','term','reference')),
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  source_message_number INTEGER,
  source_url TEXT,
  created_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  retired_at TEXT,
  PRIMARY KEY (room_id, number),
  UNIQUE (room_id, client_id)
) STRICT;

CREATE TABLE human_requests (
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  client_id TEXT NOT NULL,
  category TEXT NOT NULL CHECK (category IN ('question','decision','approval','review')),
  title TEXT NOT NULL,
  body TEXT NOT NULL,
  recommendation TEXT,
  unblocks TEXT,
  source_message_number INTEGER,
  source_url TEXT,
  event_message_number INTEGER,
  status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','answered','dismissed')),
  requested_by TEXT NOT NULL,
  requested_by_agent_key TEXT,
  requested_by_name TEXT,
  answer_text TEXT,
  answered_by TEXT,
  answered_at TEXT,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (room_id, number),
  UNIQUE (room_id, client_id)
) STRICT;
CREATE INDEX human_requests_queue ON human_requests (status, created_at);

-- "Needs you" items a person dismissed (mentions, tasks in review, blocked tasks). Requests
-- are dismissed through their own status instead. A task item comes back when the task
-- changes after the dismissal (tasks.updated_at > dismissed_at).
CREATE TABLE needs_you_dismissals (
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  item_kind TEXT NOT NULL CHECK (item_kind IN ('mention','review','blocked')),
  number INTEGER NOT NULL,
  dismissed_at TEXT NOT NULL,
  PRIMARY KEY (room_id, item_kind, number)
) STRICT, WITHOUT ROWID;

CREATE TABLE room_artifacts (
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  provider TEXT NOT NULL,
  kind TEXT NOT NULL,
  identity_value TEXT NOT NULL,
  artifact_json TEXT NOT NULL,
  published_by TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (room_id, number),
  UNIQUE (room_id, provider, kind, identity_value)
) STRICT;

CREATE TABLE artifact_task_links (
  room_id TEXT NOT NULL,
  artifact_number INTEGER NOT NULL,
  task_number INTEGER NOT NULL,
  PRIMARY KEY (room_id, artifact_number, task_number),
  FOREIGN KEY (room_id, artifact_number) REFERENCES room_artifacts(room_id, number) ON DELETE CASCADE
) STRICT, WITHOUT ROWID;

CREATE TABLE client_room_sessions (
  client_key TEXT NOT NULL,
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  joined_via TEXT NOT NULL,
  last_message_id TEXT,
  last_seen_at TEXT NOT NULL,
  is_current INTEGER NOT NULL DEFAULT 0 CHECK (is_current IN (0,1)),
  PRIMARY KEY (client_key, room_id)
) STRICT;

CREATE TABLE account (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  github_id INTEGER,
  login TEXT NOT NULL,
  display_name TEXT,
  avatar_url TEXT,
  expires_at TEXT,
  updated_at TEXT NOT NULL
) STRICT;

CREATE TABLE settings (
  key TEXT PRIMARY KEY,
  value TEXT NOT NULL
) STRICT;

CREATE TABLE room_reads (
  room_id TEXT PRIMARY KEY REFERENCES rooms(room_id) ON DELETE CASCADE,
  last_read_number INTEGER NOT NULL DEFAULT 0
) STRICT;
`;
