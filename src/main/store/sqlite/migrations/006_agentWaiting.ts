// Migration 6 (issue 25): a managed agent that takes no turns now keeps what activated it
// (waiting_json: the triggers its next turn gets on Resume), and one whose CLI cannot run
// for a reason the person must fix says why and how to fix it (cant_run_json) until Resume.

export const migration006 = `
ALTER TABLE managed_agents ADD COLUMN waiting_json TEXT;
ALTER TABLE managed_agents ADD COLUMN cant_run_json TEXT;
`;
