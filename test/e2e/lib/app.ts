// One end-to-end session: a real `letagents-desktop serve` on a temp data folder, and the
// built renderer opened from a one-time link of the app in headless Chromium. Collects page errors,
// console errors and dialogs, so a flow can assert the page stayed clean.
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { cleanupSpawned, ensureCliBuilt, repoRoot, startServe, type ServeHandle } from '../../support';
import { launchChromium, type Chromium } from '../../renderer/support/chromium';

export interface AppSession {
  readonly serve: ServeHandle;
  readonly page: Page;
  readonly browser: Chromium;
  /** Page errors, console errors and any dialog the page opened, in order. */
  readonly problems: string[];
  /** Opens the UI (again): a fresh load from a new one-time link, as `letagents-desktop open` gets it. */
  open(): Promise<void>;
  /** Stops serve and starts it again on the same data folder (the page stays as it is); `serve` is then the new one. */
  restartServe(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenAppOptions {
  /** Extra environment for serve (e.g. a fake GitHub's). */
  readonly env?: NodeJS.ProcessEnv;
  readonly dataDir?: string;
  /** 'last': serve takes the port it had last time for the folder (as a person's `serve` does). */
  readonly port?: number | 'last';
  readonly width?: number;
  readonly height?: number;
  /** Extra Chromium switches. */
  readonly chromiumArgs?: string[];
  /** Runs in every page before the app's own scripts (e.g. traps for hostile-input checks). */
  readonly initScript?: () => void;
}

/** Starts serve and Chromium and opens the app; the sidebar is on screen when it resolves. */
export async function openApp(options: OpenAppOptions = {}): Promise<AppSession> {
  if (!existsSync(path.join(repoRoot, 'out', 'renderer', 'index.html'))) {
    throw new Error('Build the renderer first: npx electron-vite build (npm test does it).');
  }
  await ensureCliBuilt();
  let serve = await startServe({ dataDir: options.dataDir, env: options.env, port: options.port });
  const browser = await launchChromium({ width: options.width, height: options.height, args: options.chromiumArgs });
  if (options.initScript) await browser.context.addInitScript(options.initScript);
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss();
  });
  const open = async () => {
    const url = await serve.newUiUrl();
    // Via a blank page: a link that differs from the address bar only in its #fragment would not reload.
    if (page.url() !== 'about:blank') await page.goto('about:blank');
    await page.goto(url);
    await page.getByRole('navigation', { name: 'LetAgents' }).waitFor();
  };
  await open();
  return {
    get serve() {
      return serve;
    },
    async restartServe() {
      await serve.stop();
      serve = await startServe({ dataDir: serve.dataDir, env: options.env, port: options.port });
    },
    page,
    browser,
    problems,
    open,
    async close() {
      await browser.close().catch(() => undefined);
      await serve.stop().catch(() => undefined);
      await cleanupSpawned();
    },
  };
}

/** The sidebar entry of a room (its button under Rooms; with teams, in its place's group). */
export function roomButton(page: Page, name: string) {
  return page.locator('.nav-rooms').getByRole('button', { name });
}
