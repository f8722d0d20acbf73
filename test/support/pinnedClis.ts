// The agent CLIs pinned as devDependencies, for tests to put on an app's PATH. The app never
// searches the checkout's node_modules/.bin (npm scripts put it first on PATH; the person's own
// CLIs are wanted), so tests reach the pinned ones through a folder of links to them.
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from './cli';

const PINNED = ['claude', 'codex', 'gemini', 'opencode', 'copilot'];

/** A folder (out/test-clis) holding links to the pinned CLIs; made once, shared by every test file. */
export function pinnedCliBin(): string {
  const dir = join(repoRoot, 'out', 'test-clis');
  mkdirSync(dir, { recursive: true });
  for (const name of PINNED) {
    try {
      symlinkSync(join(repoRoot, 'node_modules', '.bin', name), join(dir, name));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  }
  return dir;
}
