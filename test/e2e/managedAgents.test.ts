// Managed agents end to end in Chromium against a real `serve`, whose Claude Code CLI is the
// real one talking to a fake model server (the only fake): the person adds an agent in the
// Agents page, mentions it in the room's chat, sees its answer arrive, and reads the turn in
// the agent's activity log; then pauses it.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support';
import { replyInRoom, startFakeModel, type FakeModel } from '../support/fakeModels';
import { CLI_BIN } from '../main/agents/managedApp';
import { joinAgent } from './lib/agents';
import { openApp, roomButton, type AppSession } from './lib/app';
import { saveShot } from './lib/shots';

const ROOM = 'release-work';
let app: AppSession;
let model: FakeModel;
let folder: string;

beforeAll(async () => {
  const home = tempDir('la-e2e-managed-home-');
  model = await startFakeModel('claude_code', home);
  folder = join(tempDir('la-e2e-managed-'), 'checkout-service');
  mkdirSync(folder);
  app = await openApp({ env: { ...model.env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` } });
  // A room to work in (an agent created it).
  const cedar = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Cedar' });
  await cedar.close();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await model?.close();
});

const nav = () => app.page.getByRole('navigation', { name: 'LetAgents' });

describe('managed agents in the app', () => {
  it('adds an agent, which answers a mention in the room, and shows the turn in its activity', async () => {
    const { page } = app;
    await nav().getByRole('button', { name: 'Agents', exact: true }).click();
    await page.getByRole('heading', { name: 'Managed agents' }).waitFor();
    await page.getByRole('button', { name: 'Add agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add agent' });
    await dialog.getByRole('radio', { name: 'Claude Code', exact: true }).check();
    await dialog.getByRole('textbox', { name: 'Name in the room' }).fill('Juniper');
    await dialog.getByRole('combobox', { name: 'Room' }).selectOption(ROOM);
    await dialog.getByRole('textbox', { name: 'Folder it works in' }).fill(folder);
    await dialog.getByRole('textbox', { name: /Role or standing instructions/ }).fill('You answer questions about the release.');
    await dialog.getByRole('button', { name: 'Add agent' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The card itself, not the activity entries nested in it.
    const card = page.getByRole('list', { name: 'Managed agents' }).locator('> li').filter({ hasText: 'Juniper' });
    await card.getByText('Managed', { exact: true }).waitFor();
    await saveShot(page, 'managed-agent-added');

    model.script.push('Juniper', ...replyInRoom('The release notes are ready for review.'));
    await roomButton(page, ROOM).click();
    const box = page.getByRole('combobox', { name: `Message ${ROOM}` });
    await box.fill('@Juniper are the release notes ready?');
    await box.press('Enter');
    await page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: 'The release notes are ready for review.' }).waitFor({ timeout: 30_000 });
    expect(model.script.requestsFor('Juniper')[0].prompts.join('\n')).toContain('You answer questions about the release.');

    await nav().getByRole('button', { name: 'Agents', exact: true }).click();
    await card.getByRole('button', { name: 'Activity' }).click();
    const turn = card.getByRole('list', { name: 'Turns, newest first' }).getByRole('listitem').filter({ hasText: 'Turn 1' });
    await turn.getByText(/^Done · /).waitFor({ timeout: 30_000 });
    await turn.getByText(/^send_message \{/).waitFor();
    await turn.getByText('@Juniper are the release notes ready?', { exact: false }).first().waitFor();
    await saveShot(page, 'managed-agent-activity');

    await card.getByRole('button', { name: 'Pause' }).click();
    await card.getByText('Paused').waitFor();
    await card.getByRole('button', { name: 'Resume' }).waitFor();
    expect(app.problems).toEqual([]);
  });
});
