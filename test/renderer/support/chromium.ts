// Starts the machine's Chromium headless through playwright-core, with a fresh profile and
// no background traffic, for tests and screenshots that need a real browser engine; room for
// extra switches (e.g. a host resolver rule that points a foreign name at 127.0.0.1).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM_PATH = process.env.LETAGENTS_CHROMIUM ?? '/usr/bin/chromium';

const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Chromium {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

export interface ChromiumOptions {
  colorScheme?: 'light' | 'dark';
  width?: number;
  height?: number;
  /** Extra Chromium switches. */
  args?: string[];
  /** A phone: its user agent, scale, touch and mobile viewport (a playwright device descriptor). */
  device?: { userAgent: string; deviceScaleFactor: number; isMobile: boolean; hasTouch: boolean };
}

export async function launchChromium(options: ChromiumOptions = {}): Promise<Chromium> {
  const profile = mkdtempSync(path.join(tmpdir(), 'letagents-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: [...FLAGS, ...(options.args ?? [])],
    viewport: { width: options.width ?? 1440, height: options.height ?? 900 },
    colorScheme: options.colorScheme ?? 'light',
    deviceScaleFactor: 1,
    ...options.device,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
