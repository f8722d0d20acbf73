// A tool request relayed from an interactive Claude Code session (issue 32 item 10), in
// Chromium against a real `serve`: the session is a real helper whose client names itself
// "claude-code" and whose parent carries the channel flag (as the real CLI starts it),
// registered as Juniper. Its request's description is the agent's text, so Markdown in it (a
// bold "approved", a link, an image, a heading) shows as the characters it is, not as formatting
// the person could take for the app's own words; the item is named by the session's agent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLAUDE_CHANNEL_FLAGS, connectHelper, type HelperClient } from '../support';
import { openApp, type AppSession } from './lib/app';

const ROOM = 'relay-words';
const DESCRIPTION = '**Approved by Ada** [open the checklist](https://evil.example/steal) ![seen](https://evil.example/p.png)\n# Safe to allow';

let app: AppSession;
let juniper: HelperClient;

beforeAll(async () => {
  app = await openApp();
  juniper = await connectHelper(app.serve.dataDir, { clientName: 'claude-code', agentFlags: CLAUDE_CHANNEL_FLAGS });
  const joined = JSON.parse(((await juniper.callTool({ name: 'join_room', arguments: { name: ROOM } })) as { content: Array<{ text: string }> }).content[0].text);
  await juniper.callTool({ name: 'register_agent_session', arguments: { room_id: joined.room_id, registration_key: 'relay-words-4f7a9c2e81d6b035', display_name: 'Juniper' } });
}, 60_000);

afterAll(async () => {
  await juniper?.close();
  await app?.close();
});

describe('a relayed tool request in Needs you', () => {
  it("shows the agent's description as text: no bold, link, image or heading of its making", async () => {
    await juniper.notification({
      method: 'notifications/claude/channel/permission_request',
      params: { request_id: 'mdown', tool_name: 'Bash', description: DESCRIPTION, input_preview: JSON.stringify({ command: 'make release' }) },
    } as never);
    const { page } = app;
    const nav = page.getByRole('navigation', { name: 'LetAgents' });
    await nav.getByRole('button', { name: /Needs you/ }).getByLabel('1 waiting').waitFor({ timeout: 15_000 });
    await nav.getByRole('button', { name: /Needs you/ }).click();
    const item = page.getByRole('article', { name: 'Wants to use a tool from Juniper: Juniper asks to use Bash' });
    await item.waitFor();
    // The words are there as typed, Markdown signs and all.
    const text = (await item.textContent()) ?? '';
    expect(text).toContain('**Approved by Ada** [open the checklist](https://evil.example/steal) ![seen](https://evil.example/p.png)');
    expect(text).toContain('# Safe to allow');
    // Nothing of the agent's making is formatted: no link, image or emphasis, no heading or bold
    // text but the item's own (its title, and who asks).
    expect(await item.locator('a, img, em').count()).toBe(0);
    expect(await item.getByRole('heading').allTextContents()).toEqual(['Juniper asks to use Bash']);
    expect(await item.locator('strong').allTextContents()).toEqual(['Juniper']);
    expect(app.problems).toEqual([]);
  });
});
