// Migration 6 (issue 25), PostgreSQL twin of SQLite's 006_agentWaiting: a managed agent's
// kept triggers and why its CLI cannot run.
const T = 'TEXT COLLATE "C"';

export const pgMigration006 = `
ALTER TABLE managed_agents ADD COLUMN waiting_json ${T};
ALTER TABLE managed_agents ADD COLUMN cant_run_json ${T};
`;
