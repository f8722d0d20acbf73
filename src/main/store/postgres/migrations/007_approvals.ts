// Migration 7 (issues 25, 26, 28), PostgreSQL twin of SQLite's 007_approvals: "ask" as a managed
// agent's permissions, Gemini CLI and OpenCode as providers, and the approvals table.
const T = 'TEXT COLLATE "C"';

export const pgMigration007 = `
ALTER TABLE managed_agents DROP CONSTRAINT managed_agents_provider_check;
ALTER TABLE managed_agents ADD CONSTRAINT managed_agents_provider_check CHECK (provider IN ('claude_code','codex','gemini','opencode'));
ALTER TABLE managed_agents DROP CONSTRAINT managed_agents_permissions_check;
ALTER TABLE managed_agents ADD CONSTRAINT managed_agents_permissions_check CHECK (permissions IN ('read_only','edit','ask','provider_default'));

CREATE TABLE approvals (
  number BIGINT PRIMARY KEY,
  source ${T} NOT NULL CHECK (source IN ('managed_turn','channel')),
  room_id ${T},
  session_id ${T},
  agent_id ${T},
  turn_number BIGINT,
  request_id ${T},
  agent_name ${T} NOT NULL,
  tool ${T} NOT NULL,
  description ${T} NOT NULL DEFAULT '',
  input_preview ${T} NOT NULL DEFAULT '',
  status ${T} NOT NULL CHECK (status IN ('pending','allowed','denied','closed')),
  decision ${T} CHECK (decision IN ('allow_once','allow_turn','deny')),
  note ${T},
  decided_by ${T},
  closed_reason ${T},
  created_at ${T} NOT NULL,
  settled_at ${T}
);
CREATE INDEX approvals_status ON approvals (status, created_at);
`;
