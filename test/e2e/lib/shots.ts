// Screenshots of each flow's end state under test-results/e2e/ (gitignored).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { repoRoot } from '../../support';

export const SHOTS_DIR = path.join(repoRoot, 'test-results', 'e2e');

/** Saves `<flow>.png` and returns its path. */
export async function saveShot(page: Page, flow: string): Promise<string> {
  mkdirSync(SHOTS_DIR, { recursive: true });
  const file = path.join(SHOTS_DIR, `${flow}.png`);
  await page.screenshot({ path: file });
  return file;
}
