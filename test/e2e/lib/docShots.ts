// The README's screenshots (issue 35), made by the e2e run so they never go stale. Each image
// in docs/images is committed with a fingerprint of what it shows: the shown region's
// accessibility tree (its words, roles and states), with what differs from run to run taken
// out (times, temporary paths, commit ids). A run that sees the same fingerprint writes
// nothing, so CI leaves the tree clean. One that sees another rewrites the image and its
// fingerprint (commit both), except in CI (CI=true), where it fails and says how to refresh.
// Looks alone (CSS) do not change the fingerprint: LETAGENTS_DOC_SHOTS=update rewrites anyway.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { userInfo } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { repoRoot } from '../../support';
import { saveShot } from './shots';

export const DOC_IMAGES = path.join(repoRoot, 'docs', 'images');
/** The screenshots the README shows, by name (docs/images/<name>.png). */
export const README_SHOTS = ['connect-agents', 'room-answer-seen-by', 'managed-agent-changes'] as const;
export type ReadmeShot = (typeof README_SHOTS)[number];

const REFRESH = 'npm test -- --project local test/e2e/readmeShots.test.ts';

/** The person's name in the app (the OS user, when not signed in): it differs from machine to machine. */
function osUserName(): string {
  try {
    return userInfo().username;
  } catch {
    return process.env.USER ?? '';
  }
}

/** What stays the same from run to run (and machine to machine) in an accessibility snapshot. */
export function stableFingerprint(snapshot: string, person = osUserName()): string {
  const named = person ? snapshot.replace(new RegExp(`\\b${person.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\b`, 'g'), '<person>') : snapshot;
  return `${named
    .replace(/\/tmp\/[^\s"'`)]+/g, '<folder>')
    .replace(/\b\d[\d,]* tokens\b/g, '<n> tokens')
    .replace(/<?\$\d+(\.\d+)?/g, '<cost>')
    .replace(/\b\d+ (min|h) ago\b|\bjust now\b/g, '<time>')
    .replace(/\b\d{2}:\d{2}(:\d{2})?\b/g, '<clock>')
    .replace(/\b[0-9a-f]{7,40}\b/g, '<commit>')
    .replace(/127\.0\.0\.1:\d+/g, '127.0.0.1:<port>')
    .trimEnd()}\n`;
}

export interface DocShotOutcome {
  readonly name: ReadmeShot;
  /** Written this run (its fingerprint changed, or was missing); false: the committed one still shows it. */
  readonly written: boolean;
}

/** Screenshots the page for docs/images/<name>.png when what `region` shows changed since it was taken. */
export async function saveDocShot(page: Page, name: ReadmeShot, region: Locator): Promise<DocShotOutcome> {
  await saveShot(page, `readme-${name}`);
  const fingerprint = stableFingerprint(await region.ariaSnapshot());
  const image = path.join(DOC_IMAGES, `${name}.png`);
  const printFile = path.join(DOC_IMAGES, `${name}.aria.yml`);
  const committed = existsSync(printFile) ? readFileSync(printFile, 'utf8') : null;
  const forced = process.env.LETAGENTS_DOC_SHOTS === 'update';
  if (!forced && committed === fingerprint && existsSync(image)) return { name, written: false };
  if (process.env.CI && !forced) {
    throw new Error(
      `docs/images/${name}.png no longer shows what the app shows (its fingerprint ${name}.aria.yml differs). ` +
        `Run \`${REFRESH}\` on your machine and commit docs/images.\n--- committed\n${committed ?? '(none)'}\n--- now\n${fingerprint}`,
    );
  }
  mkdirSync(DOC_IMAGES, { recursive: true });
  await page.screenshot({ path: image });
  writeFileSync(printFile, fingerprint);
  return { name, written: true };
}
