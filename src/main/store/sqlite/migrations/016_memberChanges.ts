// Migration 16: nothing in a file of this computer. Its PostgreSQL twin lets a team's poll
// fallback notice changes of a room's managed agents and passes on an @all (change tracking nothing here needs, like
// 010's); the number is kept on both engines so a schema version means one thing.

export const migration016 = `
SELECT 1;
`;
