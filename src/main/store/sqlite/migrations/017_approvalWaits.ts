// Migration 17 (team rooms' approvals): a managed agent's row in its room says when it waits for
// its owner's approval (which tool, whose, since when), so every machine of a team sees why it
// is silent. Only the computer that runs it decides; the command itself never leaves it.

export const migration017 = `
ALTER TABLE managed_members ADD COLUMN approval_tool TEXT;
ALTER TABLE managed_members ADD COLUMN approval_person TEXT;
ALTER TABLE managed_members ADD COLUMN approval_since TEXT;
`;
