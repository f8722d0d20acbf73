// A managed agent whose CLI cannot run, in Chromium against a real `serve` whose Claude Code
// is the real CLI without a key (not signed in; the fake model server is never reached):
// the Add dialog warns up front naming the CLI, the card says "Can't run" with the fix, and
// Needs you holds one item with the fix and Resume.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support';
import { startFakeModel, type FakeModel } from '../support/fakeModels';
import { CLI_BIN } from '../main/agents/managedApp';
import { joinAgent } from './lib/agents';
import { openApp, roomButton, type AppSession } from './lib/app';
import { saveShot } from './lib/shots';

const ROOM = 'night-shift';
let app: AppSession;
let model: FakeModel;
let folder: string;

beforeAll(async () => {
  const home = tempDir('la-e2e-cantrun-home-');
  model = await startFakeModel('claude_code', home);
  folder = join(tempDir('la-e2e-cantrun-'), 'checkout-service');
  mkdirSync(folder);
  const { ANTHROPIC_API_KEY: _notSignedIn, ...env } = model.env;
  app = await openApp({ env: { ...env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` } });
  const cedar = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Cedar' });
  await cedar.close();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await model?.close();
});

const nav = () => app.page.getByRole('navigation', { name: 'LetAgents' });

describe('a managed agent that cannot run', () => {
  it("warns when added, then shows Can't run with the fix on its card and one Needs-you item", async () => {
    const { page } = app;
    const claude = `${CLI_BIN}/claude`;
    await nav().getByRole('button', { name: 'Agents', exact: true }).click();
    await page.getByRole('button', { name: 'Add agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add agent' });
    await dialog.getByRole('radio', { name: 'Claude Code', exact: true }).check();
    await dialog.getByText(`Claude Code at ${claude} (found on the app's PATH) is not signed in`, { exact: false }).waitFor({ timeout: 30_000 });
    await dialog.getByRole('textbox', { name: 'Name in the room' }).fill('Juniper');
    await dialog.getByRole('combobox', { name: 'Room' }).selectOption(ROOM);
    await dialog.getByRole('textbox', { name: 'Folder it works in' }).fill(folder);
    await saveShot(page, 'managed-agent-not-signed-in-warning');
    await dialog.getByRole('button', { name: 'Add agent' }).click();
    await dialog.waitFor({ state: 'detached' });

    await roomButton(page, ROOM).click();
    const box = page.getByRole('combobox', { name: `Message ${ROOM}` });
    await box.fill('@Juniper is tonight\'s deploy ready?');
    await box.press('Enter');

    await nav().getByRole('button', { name: 'Agents', exact: true }).click();
    const card = page.getByRole('list', { name: 'Managed agents' }).locator('> li').filter({ hasText: 'Juniper' });
    await card.getByText("Can't run: Claude Code is not signed in.").waitFor({ timeout: 30_000 });
    await card.getByText(`Sign in: run \`${claude} auth login\``, { exact: false }).waitFor();
    await card.getByRole('button', { name: 'Resume' }).waitFor();
    expect(await card.getByRole('button', { name: 'Run now' }).isDisabled()).toBe(true);
    await saveShot(page, 'managed-agent-cant-run');

    await nav().getByRole('button', { name: /Needs you/ }).getByLabel('1 waiting').waitFor();
    await nav().getByRole('button', { name: /Needs you/ }).click();
    const item = page.getByRole('article', { name: "Can't run from Juniper: Juniper can't run: Claude Code is not signed in" });
    await item.waitFor();
    await item.getByText(`${claude} auth login`, { exact: false }).waitFor();
    await item.getByRole('button', { name: 'Resume it' }).waitFor();
    await saveShot(page, 'needs-you-cant-run');
    expect(app.problems).toEqual([]);
  });
});
