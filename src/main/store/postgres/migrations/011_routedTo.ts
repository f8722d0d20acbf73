// Migration 11 (issue 34): like SQLite's 011, whom a person's message that names nobody wakes,
// decided once when it is posted, so every machine of the team reads the same answer.

export const pgMigration011 = `
ALTER TABLE messages ADD COLUMN routed_to TEXT;
`;
