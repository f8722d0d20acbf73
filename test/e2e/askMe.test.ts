// "Ask me" in Chromium (issue 25) against a real `serve`, whose Claude Code is the real CLI
// talking to a fake model server (the only fake): the person adds an agent that asks, mentions
// it, sees its tool request in Needs you (tool, command, Allow once / Allow for this turn /
// Deny with a note), allows it, and the file the command creates is there, the item says the
// agent went on (issue 37), and the agent's reply lands in the room.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
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

describe('"Ask me" in the app', () => {
  it('shows the agent\'s tool request in Needs you; Allow once runs it and the agent answers', async () => {
    const { app, model, folder } = served;
    const { page } = app;
    const nav = page.getByRole('navigation', { name: 'LetAgents' });
    await addClaudeAgent(page, { name: 'Asker', room: ROOM, folder, permission: /^Ask me/ });

    const notes = join(folder, 'release-notes.md');
    model.script.push('Asker', callBuiltInTool('Bash', { command: `touch ${notes}`, description: 'Create the release notes' }), ...replyInRoom('Created the release notes file.'));
    await roomButton(page, ROOM).click();
    const box = page.getByRole('combobox', { name: `Message ${ROOM}` });
    await box.fill('@Asker please create the release notes file.');
    await box.press('Enter');

    await nav.getByRole('button', { name: /Needs you/ }).getByLabel('1 waiting').waitFor({ timeout: 30_000 });
    await nav.getByRole('button', { name: /Needs you/ }).click();
    const item = page.getByRole('article', { name: 'Wants to use a tool from Asker: Asker asks to use Bash' });
    await item.waitFor();
    expect(await item.getByLabel('Bash wants to run').textContent()).toBe(`touch ${notes}`);
    for (const choice of ['Allow once', 'Allow for this turn', 'Deny']) await item.getByRole('button', { name: choice, exact: true }).waitFor();
    await item.getByRole('textbox', { name: 'Note for Asker' }).waitFor();
    await saveShot(page, 'needs-you-approval');
    expect(existsSync(notes)).toBe(false);

    await item.getByRole('button', { name: 'Allow once', exact: true }).click();
    await item.getByRole('status').filter({ hasText: 'the agent went on' }).waitFor({ timeout: 30_000 });
    await nav.getByRole('button', { name: /Needs you/ }).getByLabel('1 waiting').waitFor({ state: 'detached' });
    await roomButton(page, ROOM).click();
    await page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: 'Created the release notes file.' }).waitFor({ timeout: 30_000 });
    expect(existsSync(notes)).toBe(true);
    expect(app.problems).toEqual([]);
  });
});
