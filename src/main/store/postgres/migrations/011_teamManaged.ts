// Migration 11 (issue 35 item 1), PostgreSQL twin of SQLite's 011_teamManaged: managed agents in
// team rooms. managed_agents (which a team database keeps only for the schemas to match: an
// agent's settings stay on the computer that runs it) gets `place` and `name` and loses its
// references to rooms and workers; managed_members holds the room's managed agents as every
// machine of the team sees them: members between turns, which app runs each on which machine,
// and whether it takes turns now.
const T = 'TEXT COLLATE "C"';

export const pgMigration011 = `
ALTER TABLE managed_agents DROP CONSTRAINT managed_agents_worker_id_fkey;
ALTER TABLE managed_agents DROP CONSTRAINT managed_agents_room_id_fkey;
ALTER TABLE managed_agents ADD COLUMN place ${T} NOT NULL DEFAULT 'local';
ALTER TABLE managed_agents ADD COLUMN name ${T} NOT NULL DEFAULT '';

CREATE TABLE managed_members (
  room_id ${T} NOT NULL REFERENCES rooms(room_id) ON DELETE CASCADE,
  worker_id ${T} NOT NULL REFERENCES workers(worker_id),
  agent_id ${T} NOT NULL,
  host_id ${T},
  host_label ${T},
  takes_turns BIGINT NOT NULL DEFAULT 1 CHECK (takes_turns IN (0,1)),
  created_at ${T} NOT NULL,
  updated_at ${T} NOT NULL,
  PRIMARY KEY (room_id, worker_id)
);
CREATE UNIQUE INDEX managed_members_agent ON managed_members (agent_id);
`;
