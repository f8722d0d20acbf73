// "Ask me" in Chromium (issue 25) against a real `serve`, whose Claude Code is the real CLI
// talking to a fake model server (the only fake): the person adds an agent that asks, mentions
// it, sees its tool request in Needs you (tool, command, Allow once / Allow for this turn /
// Deny with a note), allows it, and the file the command creates is there and the agent's
// reply lands in the room. A long command is shown whole (issue 32, item 6).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callBuiltInTool, replyInRoom } from '../support/fakeModels';
import { roomButton } from './lib/app';
import { addClaudeAgent, openManagedApp, type ManagedServe } from './lib/managed';
import { saveShot } from './lib/shots';

const ROOM = 'release-work';
let served: ManagedServe;

beforeAll(async () => {
  served = await openManagedApp('askme', ROOM);
}, 60_000);

afterAll(async () => {
  await served?.close();
});

/**
 * Adds an "Ask me" agent named `name`, mentions it so that it asks to run `command` (then
 * replies `reply`), and opens its item in Needs you.
 */
async function askerItem(name: string, command: string, description: string, reply: string): Promise<Locator> {
  const { app, model, folder } = served;
  const { page } = app;
  const nav = page.getByRole('navigation', { name: 'LetAgents' });
  await addClaudeAgent(page, { name, room: ROOM, folder, permission: /^Ask me/ });
  model.script.push(name, callBuiltInTool('Bash', { command, description }), ...replyInRoom(reply));
  await roomButton(page, ROOM).click();
  const box = page.getByRole('combobox', { name: `Message ${ROOM}` });
  await box.fill(`@${name} please do it.`);
  await box.press('Enter');
  await nav.getByRole('button', { name: /Needs you/ }).getByLabel('1 waiting').waitFor({ timeout: 30_000 });
  await nav.getByRole('button', { name: /Needs you/ }).click();
  const item = page.getByRole('article', { name: `Wants to use a tool from ${name}: ${name} asks to use Bash` });
  await item.waitFor();
  return item;
}

describe('"Ask me" in the app', () => {
  it('shows the agent\'s tool request in Needs you; Allow once runs it and the agent answers', async () => {
    const { app, folder } = served;
    const { page } = app;
    const notes = join(folder, 'release-notes.md');
    const item = await askerItem('Asker', `touch ${notes}`, 'Create the release notes', 'Created the release notes file.');
    expect(await item.getByLabel('Bash wants to run').textContent()).toBe(`touch ${notes}`);
    for (const choice of ['Allow once', 'Allow for this turn', 'Deny']) await item.getByRole('button', { name: choice, exact: true }).waitFor();
    await item.getByRole('textbox', { name: 'Note for Asker' }).waitFor();
    await saveShot(page, 'needs-you-approval');
    expect(existsSync(notes)).toBe(false);

    await item.getByRole('button', { name: 'Allow once', exact: true }).click();
    await item.waitFor({ state: 'detached', timeout: 30_000 });
    await roomButton(page, ROOM).click();
    await page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: 'Created the release notes file.' }).waitFor({ timeout: 30_000 });
    expect(existsSync(notes)).toBe(true);
    expect(app.problems).toEqual([]);
  });

  it('shows the whole of a long command in a box that scrolls, says an allowed command runs with your rights, and Allow once runs what it showed', async () => {
    const { app, folder } = served;
    const { page } = app;
    // What matters comes after 1,000 characters: the item used to cut it off.
    const tail = join(folder, 'the-tail-ran');
    const command = `echo ${'tidy '.repeat(300)}> /dev/null; touch ${tail}`;
    const item = await askerItem('Tidier', command, 'Tidy up', 'Tidied up.');
    const shown = item.getByLabel('Bash wants to run');
    expect(await shown.textContent()).toBe(command);
    // Long lines wrap and the box scrolls: nothing of it is out of reach.
    expect(await shown.evaluate((el) => [getComputedStyle(el).overflowY, getComputedStyle(el).whiteSpace, el.scrollWidth <= el.clientWidth])).toEqual(['auto', 'pre-wrap', true]);
    await item.getByText('If you allow it, it runs as you, with your rights on this computer, not only in the agent\'s folder.').waitFor();
    await saveShot(page, 'needs-you-approval-long');
    expect(existsSync(tail)).toBe(false);

    await item.getByRole('button', { name: 'Allow once', exact: true }).click();
    await item.waitFor({ state: 'detached', timeout: 30_000 });
    await roomButton(page, ROOM).click();
    await page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: 'Tidied up.' }).waitFor({ timeout: 30_000 });
    expect(existsSync(tail)).toBe(true);
    expect(app.problems).toEqual([]);
  });
});
