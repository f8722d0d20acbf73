// Migration 6 (issue 28), PostgreSQL twin of SQLite's 006_moreProviders: Gemini CLI and
// OpenCode join the providers a managed agent can run (the CHECK is replaced in place).

export const pgMigration006 = `
ALTER TABLE managed_agents DROP CONSTRAINT managed_agents_provider_check;
ALTER TABLE managed_agents ADD CONSTRAINT managed_agents_provider_check CHECK (provider IN ('claude_code','codex','gemini','opencode'));
`;
