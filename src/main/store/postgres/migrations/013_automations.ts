// Migration 13 (issue 36), PostgreSQL twin of SQLite's 013_automations: automations, their runs
// and the turns each run took, a managed agent's usage-limit hold, and the "automation" kind of
// Needs-you item. A team database keeps the same schema; automations live on each computer.
const T = 'TEXT COLLATE "C"';

export const pgMigration013 = `
ALTER TABLE managed_agents ADD COLUMN limit_until ${T};

CREATE TABLE automations (
  automation_id ${T} PRIMARY KEY,
  name ${T} NOT NULL,
  place ${T} NOT NULL,
  room_id ${T} NOT NULL,
  target_kind ${T} NOT NULL CHECK (target_kind IN ('agent','mention')),
  agent_id ${T},
  mention ${T},
  instructions ${T} NOT NULL,
  trigger_json ${T} NOT NULL,
  limits_json ${T} NOT NULL,
  desired_state ${T} NOT NULL DEFAULT 'active' CHECK (desired_state IN ('active','paused')),
  anchor_at ${T} NOT NULL,
  last_due_at ${T},
  missed_count BIGINT NOT NULL DEFAULT 0,
  missed_last_at ${T},
  seen_json ${T},
  next_run_number BIGINT NOT NULL DEFAULT 1,
  created_at ${T} NOT NULL,
  updated_at ${T} NOT NULL
);
CREATE INDEX automations_agent ON automations (agent_id);

CREATE TABLE automation_runs (
  automation_id ${T} NOT NULL REFERENCES automations(automation_id) ON DELETE CASCADE,
  number BIGINT NOT NULL,
  cause ${T} NOT NULL CHECK (cause IN ('schedule','catch_up','event','run_now')),
  cause_text ${T} NOT NULL,
  status ${T} NOT NULL CHECK (status IN ('running','done','failed','stopped','skipped','missed')),
  reason ${T},
  missed BIGINT NOT NULL DEFAULT 0,
  due_at ${T},
  agent_id ${T},
  from_number BIGINT,
  input_tokens BIGINT NOT NULL DEFAULT 0,
  output_tokens BIGINT NOT NULL DEFAULT 0,
  cost_usd DOUBLE PRECISION,
  reply_number BIGINT,
  branch ${T},
  worktree_json ${T},
  started_at ${T} NOT NULL,
  ended_at ${T},
  PRIMARY KEY (automation_id, number)
);
CREATE INDEX automation_runs_open ON automation_runs (status, automation_id);

CREATE TABLE automation_run_turns (
  agent_id ${T} NOT NULL,
  turn_number BIGINT NOT NULL,
  automation_id ${T} NOT NULL REFERENCES automations(automation_id) ON DELETE CASCADE,
  run_number BIGINT NOT NULL,
  PRIMARY KEY (agent_id, turn_number)
);
CREATE INDEX automation_run_turns_run ON automation_run_turns (automation_id, run_number);

ALTER TABLE needs_you_alerts DROP CONSTRAINT needs_you_alerts_kind_check;
ALTER TABLE needs_you_alerts ADD CONSTRAINT needs_you_alerts_kind_check CHECK (kind IN ('unanswered','idle_task','loop','room_budget','agent_budget','automation'));
`;
