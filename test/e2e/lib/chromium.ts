// Headless Chromium (the machine's, through playwright-core) for end-to-end flows: a fresh
// profile each time, no background traffic, and room for extra switches (e.g. a host
// resolver rule that points a foreign name at 127.0.0.1).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM_PATH } from '../../renderer/support/chromium';

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Chromium {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export async function launchChromium(options: { width?: number; height?: number; args?: string[] } = {}): Promise<Chromium> {
  const profile = mkdtempSync(path.join(tmpdir(), 'letagents-e2e-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...FLAGS, ...(options.args ?? [])],
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    colorScheme: 'light',
    deviceScaleFactor: 1,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
