// Migration 8 (issue 28), PostgreSQL twin of SQLite's 008_copilot: GitHub Copilot CLI as a provider.

export const pgMigration008 = `
ALTER TABLE managed_agents DROP CONSTRAINT managed_agents_provider_check;
ALTER TABLE managed_agents ADD CONSTRAINT managed_agents_provider_check CHECK (provider IN ('claude_code','codex','gemini','opencode','copilot'));
`;
