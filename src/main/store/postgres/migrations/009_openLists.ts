// Migration 9 (issue 33), PostgreSQL twin of SQLite's 009_openLists: the values the app keeps in
// one list each (provider, trigger kind, turn status, activity kind) are no longer checked by the
// database, so a new one needs no migration and no teammate update. The names are PostgreSQL's
// own for the column checks of migrations 3 and 8.

export const pgMigration009 = `
ALTER TABLE managed_agents DROP CONSTRAINT managed_agents_provider_check;
ALTER TABLE managed_agent_turns DROP CONSTRAINT managed_agent_turns_trigger_kind_check;
ALTER TABLE managed_agent_turns DROP CONSTRAINT managed_agent_turns_status_check;
ALTER TABLE managed_agent_activity DROP CONSTRAINT managed_agent_activity_kind_check;
`;
