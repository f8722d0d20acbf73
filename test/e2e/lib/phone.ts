// A phone for end-to-end tests (issue 37): headless Chromium with a Pixel 7's viewport, touch and
// user agent, trusting exactly the app's phone certificate by its public-key hash
// (--ignore-certificate-errors-spki-list; never "ignore all errors"), collecting page errors.
import { createHash, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { devices, type Page } from 'playwright-core';
import { phoneCertPath } from '../../../src/main/phone/phoneCertificate';
import type { PairingOffer } from '../../../src/shared/model/phone';
import { runCli } from '../../support';
import { launchChromium, type Chromium } from '../../renderer/support/chromium';

export interface Phone {
  readonly page: Page;
  readonly browser: Chromium;
  /** Page errors, console errors and dialogs. */
  readonly problems: string[];
  close(): Promise<void>;
}

/** Base64 SHA-256 of the certificate's public key: what Chromium pins. */
export function spkiHashOf(dataDir: string): string {
  const cert = new X509Certificate(readFileSync(phoneCertPath(dataDir)));
  return createHash('sha256').update(cert.publicKey.export({ type: 'spki', format: 'der' })).digest('base64');
}

export async function openPhone(dataDir: string, options: { width?: number; height?: number } = {}): Promise<Phone> {
  const { userAgent, deviceScaleFactor, isMobile, hasTouch, viewport } = devices['Pixel 7'];
  const browser = await launchChromium({
    width: options.width ?? viewport.width,
    height: options.height ?? viewport.height,
    args: [`--ignore-certificate-errors-spki-list=${spkiHashOf(dataDir)}`],
    device: { userAgent, deviceScaleFactor, isMobile, hasTouch },
  });
  const page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.setDefaultTimeout(10_000);
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`));
  page.on('console', (message) => message.type() === 'error' && problems.push(`console: ${message.text()}`));
  page.on('dialog', (dialog) => {
    problems.push(`dialog: ${dialog.type()} ${dialog.message()}`);
    void dialog.dismiss();
  });
  return { page, browser, problems, close: () => browser.close() };
}

/**
 * Phone access on 127.0.0.2 (the stand-in for the LAN) from the command line, and a phone paired
 * by the link `phone pair` prints, as a person does it (name typed, Pair tapped), on Needs you.
 */
export async function pairedPhone(dataDir: string, options: { name?: string; width?: number; height?: number } = {}): Promise<Phone> {
  const on = await runCli(['phone', 'on', '--address', '127.0.0.2', '--port', '0', '--data-dir', dataDir]);
  if (on.stderr !== '') throw new Error(`phone on: ${on.stderr}`);
  const offer = JSON.parse((await runCli(['phone', 'pair', '--json', '--data-dir', dataDir])).stdout) as PairingOffer;
  const phone = await openPhone(dataDir, options);
  await phone.page.goto(offer.link);
  await phone.page.getByRole('textbox', { name: 'Name of this phone' }).fill(options.name ?? 'Pixel 7');
  await phone.page.getByRole('button', { name: 'Pair this phone' }).tap();
  await phone.page.getByRole('heading', { name: 'Needs you', level: 1 }).waitFor();
  return phone;
}
