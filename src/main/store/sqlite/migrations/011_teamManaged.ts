// Migration 11 (issue 35 item 1): managed agents in team rooms. A managed agent's settings stay
// in this computer's file, but its room (and its worker) may live in a team's database:
// - managed_agents gets `place` ('local' or the team's name) and `name` (the name it was added
//   under, shown while its team cannot be reached), and loses its references to this file's
//   rooms and workers (they may be a team's); deleting a room of this computer now removes its
//   agents in the app (agents/managedAgents.ts), not by cascade. SQLite cannot drop a
//   reference, so the three tables are rebuilt as in migration 9 (children renamed and dropped
//   before their parent, so no cascade fires);
// - managed_members, in every place's database: the room's managed agents as everyone sees
//   them (members between turns too, for routing on every machine), which app runs each (its
//   heartbeat in app_hosts) on which machine, and whether it takes turns now. This file's own
//   agents are copied in.

export const migration011 = `
ALTER TABLE managed_agent_activity RENAME TO managed_agent_activity_009;
ALTER TABLE managed_agent_turns RENAME TO managed_agent_turns_009;
ALTER TABLE managed_agents RENAME TO managed_agents_009;

CREATE TABLE managed_agents (
  agent_id TEXT PRIMARY KEY,
  worker_id TEXT NOT NULL,
  room_id TEXT NOT NULL,
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
  cant_run_json TEXT,
  place TEXT NOT NULL DEFAULT 'local',
  name TEXT NOT NULL DEFAULT ''
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
INSERT INTO managed_agents
  SELECT m.*, 'local', COALESCE(
    (SELECT s.display_name FROM agent_sessions s WHERE s.worker_id = m.worker_id AND s.room_id = m.room_id),
    (SELECT w.display_name FROM workers w WHERE w.worker_id = m.worker_id), '')
  FROM managed_agents_009 m;
INSERT INTO managed_agent_turns SELECT * FROM managed_agent_turns_009;
INSERT INTO managed_agent_activity SELECT * FROM managed_agent_activity_009;
DROP TABLE managed_agent_activity_009;
DROP TABLE managed_agent_turns_009;
DROP TABLE managed_agents_009;
CREATE UNIQUE INDEX managed_agents_worker ON managed_agents (worker_id);
CREATE INDEX managed_agent_turns_started ON managed_agent_turns (agent_id, started_at);
CREATE INDEX managed_agent_activity_turn ON managed_agent_activity (agent_id, turn_number, seq);

CREATE TABLE managed_members (
  room_id TEXT NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  worker_id TEXT NOT NULL REFERENCES workers(worker_id),
  agent_id TEXT NOT NULL,
  host_id TEXT,
  host_label TEXT,
  takes_turns INTEGER NOT NULL DEFAULT 1 CHECK (takes_turns IN (0,1)),
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  PRIMARY KEY (room_id, worker_id)
) STRICT;
CREATE UNIQUE INDEX managed_members_agent ON managed_members (agent_id);
INSERT INTO managed_members (room_id, worker_id, agent_id, host_id, host_label, takes_turns, created_at, updated_at)
  SELECT room_id, worker_id, agent_id, NULL, NULL,
    CASE WHEN desired_state = 'running' AND held_reason IS NULL AND cant_run_json IS NULL THEN 1 ELSE 0 END, created_at, updated_at
  FROM managed_agents;
`;
