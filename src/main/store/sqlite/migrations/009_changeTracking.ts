// Migration 9 (issue 32 item 14): the team database's change tracking for the poll fallback
// (PostgreSQL's 009). Nothing polls a file of this computer, so nothing changes here; the
// number keeps both engines' schema versions in step.

export const migration009 = `
-- nothing to change in SQLite
`;
