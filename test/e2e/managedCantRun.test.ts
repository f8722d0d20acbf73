// A managed agent whose CLI cannot run, in Chromium against a real `serve` whose Claude Code
// is the real CLI without a key (not signed in; the fake model server is never reached):
// the Add dialog warns up front naming the CLI, the card says "Can't run" with the fix, and
// Needs you holds one item with the fix and Resume.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BIN } from '../main/agents/managedApp';
import { roomButton, type AppSession } from './lib/app';
import { addClaudeAgent, openManagedApp, type ManagedServe } from './lib/managed';
import { saveShot } from './lib/shots';

const ROOM = 'night-shift';
let served: ManagedServe;
let app: AppSession;

beforeAll(async () => {
  served = await openManagedApp('cantrun', ROOM, { signedIn: false });
  app = served.app;
}, 60_000);

afterAll(async () => {
  await served?.close();
});

const nav = () => app.page.getByRole('navigation', { name: 'LetAgents' });

describe('a managed agent that cannot run', () => {
  it("warns when added, then shows Can't run with the fix on its card and one Needs-you item", async () => {
    const { page } = app;
    const claude = `${CLI_BIN}/claude`;
    await addClaudeAgent(page, {
      name: 'Juniper',
      room: ROOM,
      folder: served.folder,
      beforeAdd: async (dialog) => {
        await dialog.getByText(`Claude Code at ${claude} (found on the app's PATH) is not signed in`, { exact: false }).waitFor({ timeout: 30_000 });
        await saveShot(page, 'managed-agent-not-signed-in-warning');
      },
    });

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
