// Takes screenshots of every view in light and dark, against the built renderer and the demo
// data, into test-results/screenshots/. Build first (npx electron-vite build), then:
//   npx esbuild test/renderer/support/screenshots.ts --bundle --platform=node --format=esm \
//     --packages=external --outfile=/tmp/shots.mjs && npx node /tmp/shots.mjs
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { launchChromium } from './chromium';
import { demoState, DEMO_REPO_ROOM } from './demoSeed';
import { startDemoServer } from './demoServer';
import { emptyState } from './fakeApi';
import { agentPerson, message } from './fakeData';

const OUT = path.resolve('test-results/screenshots');
const RENDERER = path.resolve('out/renderer');

async function shoot(page: Page, name: string) {
  await page.waitForTimeout(250);
  await page.screenshot({ path: path.join(OUT, `${name}.png`) });
}

async function run(scheme: 'light' | 'dark') {
  const browser = await launchChromium({ colorScheme: scheme });
  const demo = await startDemoServer(RENDERER, demoState());
  const page = await browser.context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => (m.type() === 'error' || m.type() === 'warning') && problems.push(`${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(demo.url);
  await page.getByRole('region', { name: 'Messages' }).waitFor();
  await shoot(page, `${scheme}-chat`);
  demo.api.post(DEMO_REPO_ROOM, message(DEMO_REPO_ROOM, 0, agentPerson('Juniper'), 'Fix pushed. CI is green, @Cedar can you re-review?'));
  await shoot(page, `${scheme}-chat-live`);
  await page.getByRole('button', { name: /2 replies/ }).click();
  await shoot(page, `${scheme}-thread`);
  await page.keyboard.press('Control+f');
  await page.getByRole('searchbox').fill('transaction');
  await shoot(page, `${scheme}-search`);
  await page.keyboard.press('Escape');
  await page.getByRole('tab', { name: 'Board' }).click();
  await shoot(page, `${scheme}-board`);
  await page.getByRole('button', { name: 'Retry logic for the payment webhook' }).click();
  await shoot(page, `${scheme}-task-drawer`);
  await page.getByRole('tab', { name: 'Agents' }).click();
  await shoot(page, `${scheme}-room-agents`);
  await page.getByRole('tab', { name: 'Memory' }).click();
  await shoot(page, `${scheme}-memory`);
  for (const [label, name] of [['Needs you', 'needs-you'], ['Agents', 'agents'], ['Connect agents', 'connect'], ['Settings', 'settings']] as const) {
    await page.getByRole('navigation').getByRole('button', { name: new RegExp(`^${label}`) }).click();
    await shoot(page, `${scheme}-${name}`);
  }
  await page.getByRole('navigation').getByRole('button', { name: /Sign in/ }).click();
  await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
  await page.getByText('Waiting for approval…').waitFor();
  await shoot(page, `${scheme}-sign-in-code`);
  await demo.close();

  const first = await startDemoServer(RENDERER, emptyState());
  await page.goto(first.url);
  await page.getByRole('heading', { name: 'Welcome to LetAgents' }).waitFor();
  await shoot(page, `${scheme}-first-run`);
  await first.close();
  await browser.close();
  return problems;
}

mkdirSync(OUT, { recursive: true });
for (const scheme of ['light', 'dark'] as const) {
  const problems = await run(scheme);
  console.log(`${scheme}: ${problems.length === 0 ? 'no console errors' : problems.join('\n')}`);
}
