// Migration 3 (issue 19): managed agents — the provider CLIs the app runs — with their settings, the
// state the person asked for (survives a restart), the provider's session to resume, and
// each turn with its usage and activity log (budgets are counted from the turns).

export const migration003 = `
CREATE TABLE managed_agents (
  agent_id TEXT PRIMARY KEY,
  worker_id TEXT NOT NULL REFERENCES workers(worker_id),
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  provider TEXT NOT NULL CHECK (provider IN ('claude_code','codex')),
  folder TEXT NOT NULL,
  instructions TEXT NOT NULL DEFAULT '',
  model TEXT,
  permissions TEXT NOT NULL CHECK (permissions IN ('read_only','edit','provider_default')),
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
  updated_at TEXT NOT NULL
) STRICT;
CREATE UNIQUE INDEX managed_agents_worker ON managed_agents (worker_id);

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
CREATE INDEX managed_agent_turns_started ON managed_agent_turns (agent_id, started_at);

CREATE TABLE managed_agent_activity (
  agent_id TEXT NOT NULL REFERENCES managed_agents(agent_id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  turn_number INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('trigger','tool_call','tool_result','text','error','note')),
  text TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (agent_id, seq)
) STRICT;
CREATE INDEX managed_agent_activity_turn ON managed_agent_activity (agent_id, turn_number, seq);
`;
