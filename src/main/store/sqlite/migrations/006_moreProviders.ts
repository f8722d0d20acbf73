// Migration 6 (issue 28): two more provider CLIs a managed agent can run, Gemini CLI and
// OpenCode. SQLite cannot change a CHECK in place: the three managed-agent tables are built
// again with the wider provider list and their rows copied over (children dropped before
// their parent, so no ON DELETE CASCADE runs; the renames carry the references along).

export const migration006 = `
CREATE TABLE managed_agents_006 (
  agent_id TEXT PRIMARY KEY,
  worker_id TEXT NOT NULL REFERENCES workers(worker_id),
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  provider TEXT NOT NULL CHECK (provider IN ('claude_code','codex','gemini','opencode')),
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
INSERT INTO managed_agents_006 SELECT * FROM managed_agents;
CREATE TABLE managed_agent_turns_006 (
  agent_id TEXT NOT NULL REFERENCES managed_agents_006(agent_id) ON DELETE CASCADE,
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
INSERT INTO managed_agent_turns_006 SELECT * FROM managed_agent_turns;
CREATE TABLE managed_agent_activity_006 (
  agent_id TEXT NOT NULL REFERENCES managed_agents_006(agent_id) ON DELETE CASCADE,
  seq INTEGER NOT NULL,
  turn_number INTEGER NOT NULL,
  kind TEXT NOT NULL CHECK (kind IN ('trigger','tool_call','tool_result','text','error','note')),
  text TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (agent_id, seq)
) STRICT;
INSERT INTO managed_agent_activity_006 SELECT * FROM managed_agent_activity;
DROP TABLE managed_agent_activity;
DROP TABLE managed_agent_turns;
DROP TABLE managed_agents;
ALTER TABLE managed_agents_006 RENAME TO managed_agents;
ALTER TABLE managed_agent_turns_006 RENAME TO managed_agent_turns;
ALTER TABLE managed_agent_activity_006 RENAME TO managed_agent_activity;
CREATE UNIQUE INDEX managed_agents_worker ON managed_agents (worker_id);
CREATE INDEX managed_agent_turns_started ON managed_agent_turns (agent_id, started_at);
CREATE INDEX managed_agent_activity_turn ON managed_agent_activity (agent_id, turn_number, seq);
`;
