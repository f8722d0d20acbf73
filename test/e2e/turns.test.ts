// Whom a person's message wakes (issue 34), as the person sees it in Chromium: the composer's
// "→ …" while typing (asked of the app, the rule the send applies), the line under a sent
// message, and the note when it woke nobody, whose one-click mentions reach the agent by keyboard.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agentPool, currentCursor } from './lib/agents';
import { openApp, type AppSession } from './lib/app';
import { openChat } from './lib/chat';
import { saveShot } from './lib/shots';

let app: AppSession;
const agents = agentPool(() => app.serve.dataDir);

beforeAll(async () => {
  app = await openApp();
}, 60_000);

afterAll(async () => {
  await agents.closeAll();
  await app?.close();
});

describe('whom a message wakes', () => {
  it('shows it while typing, under the sent message, and offers one-click mentions when it woke nobody', async () => {
    const { page } = app;
    const room = 'turns-room';
    await agents.join(room, 'Cedar');
    const birch = await agents.join(room, 'Birch');
    await agents.join(room, 'Aspen');
    await openChat(page, room);
    const composer = page.getByRole('combobox', { name: `Message ${room}` });
    const wakes = page.locator('.composer-wake');

    await composer.focus();
    await page.keyboard.type('@Birch can you look?');
    await wakes.filter({ hasText: '→ Birch' }).waitFor();
    await composer.fill('');
    await page.keyboard.type('@all standup');
    // A room's @all is answered one agent at a time by default (issue 34 item 2).
    await wakes.filter({ hasText: '→ everyone, one at a time (3 agents)' }).waitFor();
    await composer.fill('');
    await page.keyboard.type('who knows the build?');
    await wakes.filter({ hasText: '→ nobody' }).waitFor();
    await saveShot(page, 'composer-wakes-nobody');

    const cursor = await currentCursor(birch);
    await page.keyboard.press('Enter');
    const message = page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: 'who knows the build?' });
    const note = message.getByRole('note', { name: 'No agent was woken' });
    await note.getByText('No agent was woken: mention one (@Aspen) or @all.').waitFor();
    expect(await note.getByRole('button').allTextContents()).toEqual(['@Aspen', '@Birch', '@Cedar', '@all']);
    await saveShot(page, 'nobody-woken-note');

    // Keyboard only: from the composer, Shift+Tab back into the note's mentions, Enter on @Birch.
    const birchButton = note.getByRole('button', { name: '@Birch' });
    for (let i = 0; i < 30 && !(await birchButton.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Shift+Tab');
    expect(await birchButton.evaluate((el) => el === document.activeElement)).toBe(true);
    const woken = birch.call('wait_for_messages', { after_message_id: cursor, timeout: 20_000 });
    await page.keyboard.press('Enter');
    await note.getByText('Asked @Birch.').waitFor();
    const got = await woken;
    expect(got.messages.map((m: { text: string; activation: { for_current_agent: { reason: string } } }) => [m.text, m.activation.for_current_agent.reason]))
      .toEqual([['@Birch', 'explicit_mention']]);
    // The one-click mention quotes the question, so Birch sees what was asked.
    expect(got.messages[0].reply_to).toMatchObject({ text: expect.stringContaining('who knows the build?') });

    // Now talking with Birch: an untagged follow-up goes to Birch, said before and after sending.
    await composer.focus();
    await page.keyboard.type('and the tests?');
    await wakes.filter({ hasText: '→ Birch' }).waitFor();
    await page.keyboard.press('Enter');
    const followUp = page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: 'and the tests?' });
    await followUp.getByText('→ Birch').waitFor();
    expect(app.problems).toEqual([]);
  });
});
