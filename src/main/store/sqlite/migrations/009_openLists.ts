// Migration 9 (issue 33): the database stops checking the values the app keeps in one list
// each: a managed agent's provider (agents/providers), a turn's trigger kind and status, and an
// activity entry's kind (shared/model/managedAgents.ts). The app checks them as it writes, so a
// new agent CLI, trigger or turn outcome needs no migration, and no teammate on a team database
// has to update for one. SQLite cannot drop a CHECK, so the managed-agent tables are rebuilt
// once more as in migration 8 (children renamed and dropped before their parent, so no cascade
// fires); the permissions, state and budget checks stay.

export const migration009 = `
ALTER TABLE managed_agent_activity RENAME TO managed_agent_activity_008;
ALTER TABLE managed_agent_turns RENAME TO managed_agent_turns_008;
ALTER TABLE managed_agents RENAME TO managed_agents_008;

CREATE TABLE managed_agents (
  agent_id TEXT PRIMARY KEY,
  worker_id TEXT NOT NULL REFERENCES workers(worker_id),
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  provider TEXT NOT NULL,
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
  trigger_kind TEXT NOT NULL,
  trigger_text TEXT NOT NULL,
  status TEXT NOT NULL,
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
  kind TEXT NOT NULL,
  text TEXT NOT NULL,
  created_at TEXT NOT NULL,
  PRIMARY KEY (agent_id, seq)
) STRICT;
INSERT INTO managed_agents SELECT * FROM managed_agents_008;
INSERT INTO managed_agent_turns SELECT * FROM managed_agent_turns_008;
INSERT INTO managed_agent_activity SELECT * FROM managed_agent_activity_008;
DROP TABLE managed_agent_activity_008;
DROP TABLE managed_agent_turns_008;
DROP TABLE managed_agents_008;
CREATE UNIQUE INDEX managed_agents_worker ON managed_agents (worker_id);
CREATE INDEX managed_agent_turns_started ON managed_agent_turns (agent_id, started_at);
CREATE INDEX managed_agent_activity_turn ON managed_agent_activity (agent_id, turn_number, seq);
`;
