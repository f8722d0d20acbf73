// Migration 13 (issue 36): automations — an instruction that starts an agent on a schedule or an
// event in a room — with their runs (one row per run, skipped run and streak of missed runs)
// and the agent turns each run took. Automations belong to this computer, also for a team's
// room (place, room_id: no key into the rooms table, which holds only this computer's rooms).
// A managed agent held by its provider's usage limit takes no turns until `limit_until`.
// A failed run is a "Needs you" item of its own kind: SQLite cannot change a CHECK, so
// needs_you_alerts is rebuilt (nothing refers to it).

export const migration013 = `
ALTER TABLE managed_agents ADD COLUMN limit_until TEXT;

CREATE TABLE automations (
  automation_id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  place TEXT NOT NULL,
  room_id TEXT NOT NULL,
  target_kind TEXT NOT NULL CHECK (target_kind IN ('agent','mention')),
  agent_id TEXT,
  mention TEXT,
  instructions TEXT NOT NULL,
  trigger_json TEXT NOT NULL,
  limits_json TEXT NOT NULL,
  desired_state TEXT NOT NULL DEFAULT 'active' CHECK (desired_state IN ('active','paused')),
  anchor_at TEXT NOT NULL,
  last_due_at TEXT,
  missed_count INTEGER NOT NULL DEFAULT 0,
  missed_last_at TEXT,
  seen_json TEXT,
  next_run_number INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL
) STRICT;
CREATE INDEX automations_agent ON automations (agent_id);

CREATE TABLE automation_runs (
  automation_id TEXT NOT NULL REFERENCES automations(automation_id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  cause TEXT NOT NULL CHECK (cause IN ('schedule','catch_up','event','run_now')),
  cause_text TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running','done','failed','stopped','skipped','missed')),
  reason TEXT,
  missed INTEGER NOT NULL DEFAULT 0,
  due_at TEXT,
  agent_id TEXT,
  from_number INTEGER,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL,
  reply_number INTEGER,
  branch TEXT,
  worktree_json TEXT,
  started_at TEXT NOT NULL,
  ended_at TEXT,
  PRIMARY KEY (automation_id, number)
) STRICT;
CREATE INDEX automation_runs_open ON automation_runs (status, automation_id);

CREATE TABLE automation_run_turns (
  agent_id TEXT NOT NULL,
  turn_number INTEGER NOT NULL,
  automation_id TEXT NOT NULL REFERENCES automations(automation_id) ON DELETE CASCADE,
  run_number INTEGER NOT NULL,
  PRIMARY KEY (agent_id, turn_number)
) STRICT;
CREATE INDEX automation_run_turns_run ON automation_run_turns (automation_id, run_number);

CREATE TABLE needs_you_alerts_new (
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('unanswered','idle_task','loop','room_budget','agent_budget','automation')),
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
INSERT INTO needs_you_alerts_new SELECT * FROM needs_you_alerts;
DROP TABLE needs_you_alerts;
ALTER TABLE needs_you_alerts_new RENAME TO needs_you_alerts;
CREATE INDEX needs_you_alerts_open ON needs_you_alerts (status, room_id, kind);
`;
