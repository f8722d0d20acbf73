// Managed agents end to end in Chromium against a real `serve`, whose Claude Code CLI is the
// real one talking to a fake model server (the only fake): the person adds an agent in the
// Agents page, mentions it in the room's chat, sees its answer arrive, and reads the turn in
// the agent's activity log; then pauses it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { replyInRoom } from '../support/fakeModels';
import { roomButton } from './lib/app';
import { addClaudeAgent, openManagedApp, type ManagedServe } from './lib/managed';
import { saveShot } from './lib/shots';

const ROOM = 'release-work';
let served: ManagedServe;

beforeAll(async () => {
  // A room to work in (an agent created it).
  served = await openManagedApp('managed', ROOM);
}, 60_000);

afterAll(async () => {
  await served?.close();
});

const nav = () => served.app.page.getByRole('navigation', { name: 'LetAgents' });

describe('managed agents in the app', () => {
  it('adds an agent, which answers a mention in the room, and shows the turn in its activity', async () => {
    const { app, model, folder } = served;
    const { page } = app;
    await addClaudeAgent(page, { name: 'Juniper', room: ROOM, folder, instructions: 'You answer questions about the release.' });
    // The card itself, not the activity entries nested in it.
    const card = page.getByRole('list', { name: 'Managed agents' }).locator('> li').filter({ hasText: 'Juniper' });
    await card.getByText('Idle', { exact: true }).waitFor();
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
    await turn.getByText(/^send_message: "/).waitFor();
    await turn.getByText('@Juniper are the release notes ready?', { exact: false }).first().waitFor();
    await saveShot(page, 'managed-agent-activity');

    await card.getByRole('button', { name: 'Pause' }).click();
    await card.getByText('Paused').waitFor();
    await card.getByRole('button', { name: 'Resume' }).waitFor();
    expect(app.problems).toEqual([]);
  });
});
