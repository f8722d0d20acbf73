// Migration 8 (issue 28): GitHub Copilot CLI joins the provider check. SQLite cannot change a
// CHECK, so the managed-agent tables are rebuilt as in migration 7 (children renamed and
// dropped before their parent, so no cascade fires).

export const migration008 = `
ALTER TABLE managed_agent_activity RENAME TO managed_agent_activity_007;
ALTER TABLE managed_agent_turns RENAME TO managed_agent_turns_007;
ALTER TABLE managed_agents RENAME TO managed_agents_007;

CREATE TABLE managed_agents (
  agent_id TEXT PRIMARY KEY,
  worker_id TEXT NOT NULL REFERENCES workers(worker_id),
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  provider TEXT NOT NULL CHECK (provider IN ('claude_code','codex','gemini','opencode','copilot')),
  folder TEXT NOT NULL,
  instructions TEXT NOT NULL DEFAULT '',
  model TEXT,
  permissions TEXT NOT NULL CHECK (permissions IN ('read_only','edit','ask','provider_default')),
  turns_per_hour INTEGER CHECK (turns_per_hour IS NULL OR turns_per_hour >= 1),
  daily_token_cap INTEGER CHECK (daily_token_cap IS NULL OR daily_token_cap >= 1),
  desired_state TEXT NOT NULL DEFAULT 'running' CHECK (desired_state IN ('running','paused')),
  held_reason TEXT CHECK (held_reason IN ('turns_per_hour','daily_tokens')),
  held_request_number INTEGER,
  budget_reset_at TEXT,
  provider_session_id TEXT,
  provider_totals_json TEXT,
  next_turn_number INTEGER NOT NULL DEFAULT 1,
  next_activity_seq INTEGER NOT NULL DEFAULT 1,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  waiting_json TEXT,
  cant_run_json TEXT
) STRICT;
CREATE TABLE managed_agent_turns (
  agent_id TEXT NOT NULL REFERENCES managed_agents(agent_id) ON DELETE CASCADE,
  number INTEGER NOT NULL,
  trigger_kind TEXT NOT NULL CHECK (trigger_kind IN ('message','task','run_now')),
  trigger_text TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('running','done','failed','stopped','timed_out')),
  started_at TEXT NOT NULL,
  ended_at TEXT,
  input_tokens INTEGER NOT NULL DEFAULT 0,
  output_tokens INTEGER NOT NULL DEFAULT 0,
  cost_usd REAL,
  error TEXT,
  PRIMARY KEY (agent_id, number)
) STRICT;
CREATE TABLE managed_agent_activity (
  agent_id TEXT NOT NULL REFERENCES managed_agents(agent_id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  turn_number INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('trigger','tool_call','tool_result','text','error','note')),
  text TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (agent_id, seq)
) STRICT;
INSERT INTO managed_agents SELECT * FROM managed_agents_007;
INSERT INTO managed_agent_turns SELECT * FROM managed_agent_turns_007;
INSERT INTO managed_agent_activity SELECT * FROM managed_agent_activity_007;
DROP TABLE managed_agent_activity_007;
DROP TABLE managed_agent_turns_007;
DROP TABLE managed_agents_007;
CREATE UNIQUE INDEX managed_agents_worker ON managed_agents (worker_id);
CREATE INDEX managed_agent_turns_started ON managed_agent_turns (agent_id, started_at);
CREATE INDEX managed_agent_activity_turn ON managed_agent_activity (agent_id, turn_number, seq);
`;
