// Migration 3 (issue 19), PostgreSQL twin of SQLite's 003_managedAgents: managed agents, their
// turns with usage, and each turn's activity log. REAL becomes DOUBLE PRECISION.
const T = 'TEXT COLLATE "C"';

export const pgMigration003 = `
CREATE TABLE managed_agents (
  agent_id ${T} PRIMARY KEY,
  worker_id ${T} NOT NULL REFERENCES workers(worker_id),
  room_id ${T} NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  provider ${T} NOT NULL CHECK (provider IN ('claude_code','codex')),
  folder ${T} NOT NULL,
  instructions ${T} NOT NULL DEFAULT '',
  model ${T},
  permissions ${T} NOT NULL CHECK (permissions IN ('read_only','edit','provider_default')),
  turns_per_hour BIGINT CHECK (turns_per_hour IS NULL OR turns_per_hour >= 1),
  daily_token_cap BIGINT CHECK (daily_token_cap IS NULL OR daily_token_cap >= 1),
  desired_state ${T} NOT NULL DEFAULT 'running' CHECK (desired_state IN ('running','paused')),
  held_reason ${T} CHECK (held_reason IN ('turns_per_hour','daily_tokens')),
  held_request_number BIGINT,
  budget_reset_at ${T},
  provider_session_id ${T},
  provider_totals_json ${T},
  next_turn_number BIGINT NOT NULL DEFAULT 1,
  next_activity_seq BIGINT NOT NULL DEFAULT 1,
  created_at ${T} NOT NULL,
  updated_at ${T} NOT NULL
);
CREATE UNIQUE INDEX managed_agents_worker ON managed_agents (worker_id);

CREATE TABLE managed_agent_turns (
  agent_id ${T} NOT NULL REFERENCES managed_agents(agent_id) ON DELETE CASCADE,
  number BIGINT NOT NULL,
  trigger_kind ${T} NOT NULL CHECK (trigger_kind IN ('message','task','run_now')),
  trigger_text ${T} NOT NULL,
  status ${T} NOT NULL CHECK (status IN ('running','done','failed','stopped','timed_out')),
  started_at ${T} NOT NULL,
  ended_at ${T},
  input_tokens BIGINT NOT NULL DEFAULT 0,
  output_tokens BIGINT NOT NULL DEFAULT 0,
  cost_usd DOUBLE PRECISION,
  error ${T},
  PRIMARY KEY (agent_id, number)
);
CREATE INDEX managed_agent_turns_started ON managed_agent_turns (agent_id, started_at);

CREATE TABLE managed_agent_activity (
  agent_id ${T} NOT NULL REFERENCES managed_agents(agent_id) ON DELETE CASCADE,
  seq BIGINT NOT NULL,
  turn_number BIGINT NOT NULL,
  kind ${T} NOT NULL CHECK (kind IN ('trigger','tool_call','tool_result','text','error','note')),
  text ${T} NOT NULL,
  created_at ${T} NOT NULL,
  PRIMARY KEY (agent_id, seq)
);
CREATE INDEX managed_agent_activity_turn ON managed_agent_activity (agent_id, turn_number, seq);
`;
