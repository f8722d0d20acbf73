// The data folder's own files, which no managed turn may read (the agent token, the databases,
// agents' settings), listed by name: agents' worktrees live in the data folder too
// (`worktrees/`), and an agent must be able to work in its own.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

export function dataFolderOwnFiles(dataDir: string): string[] {
  let entries: string[];
  try {
    entries = readdirSync(dataDir).filter((name) => name !== 'worktrees');
  } catch {
    entries = [];
  }
  const names = new Set([...entries, 'agent-token', 'letagents.db', 'letagents.db-wal', 'letagents.db-shm', 'managed-agents']);
  return [...names].map((name) => join(dataDir, name));
}
