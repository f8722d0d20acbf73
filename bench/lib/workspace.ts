// A figure's private corner: a temp folder with a data folder for `serve` and a plain
// folder (no git, no .letagents.json) that agents run in, so no auto-join happens.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { tempDir } from './processes';

export interface Workspace {
  readonly root: string;
  readonly dataDir: string;
  readonly agentDir: string;
}

export function workspace(dataDir?: string): Workspace {
  const root = tempDir();
  const agentDir = join(root, 'agent');
  mkdirSync(agentDir);
  return { root, dataDir: dataDir ?? join(root, 'data'), agentDir };
}
