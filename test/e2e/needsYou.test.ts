// "Needs you" with an agent on a real MCP connection: its request_human_input shows in the
// queue (with the sidebar count), and the person's answer, given in place, reaches the
// agent's wait_for_messages as a thread reply that mentions it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentCursor, joinAgent, type Agent } from './lib/agents';
import { openApp, type AppSession } from './lib/app';
import { saveShot } from './lib/shots';

let app: AppSession;
let cedar: Agent;

beforeAll(async () => {
  app = await openApp();
  cedar = await joinAgent(app.serve.dataDir, { room: 'infra-migration', name: 'Cedar', clientName: 'codex' });
}, 60_000);

afterAll(async () => {
  await cedar?.close();
  await app?.close();
});

describe('Needs you', () => {
  it("shows an agent's request and sends the person's answer back to the agent", async () => {
    const { page } = app;
    const asked = await cedar.call('request_human_input', {
      client_id: 'ask-db-window-1',
      category: 'decision',
      title: 'Which night can the database move?',
      body: 'The move takes **two hours** of read-only time.',
      recommendation: 'Tuesday night',
      unblocks: 'task_4 (schedule the migration)',
    });
    expect(asked.success).toBe(true);
    const cursor = await currentCursor(cedar);
    const waiting = cedar.call('wait_for_messages', { after_message_id: cursor, timeout: 20_000 });

    const nav = page.getByRole('navigation', { name: 'LetAgents' });
    await nav.getByRole('button', { name: /Needs you/ }).getByLabel('1 waiting').waitFor();
    await nav.getByRole('button', { name: /Needs you/ }).click();
    const item = page.getByRole('article', { name: 'Decision from Cedar: Which night can the database move?' });
    await item.waitFor();
    await item.getByText('two hours', { exact: true }).waitFor();
    await item.getByText('Tuesday night').waitFor();
    await saveShot(page, 'needs-you-request');

    await item.getByRole('textbox', { name: 'Answer Cedar' }).fill('Tuesday works; tell the on-call first.');
    await item.getByRole('button', { name: 'Send answer' }).click();
    await item.waitFor({ state: 'detached' });
    await page.getByText('Nothing needs you').waitFor();

    const woke = await waiting;
    const answer = woke.messages.find((m: { text: string }) => m.text.includes('Tuesday works; tell the on-call first.'));
    expect(answer, JSON.stringify(woke)).toBeTruthy();
    expect(answer.text).toContain('@Cedar');
    expect(answer.source).toBe('human');
    expect(answer.thread_root_id).not.toBeNull();
    expect(answer.activation.for_current_agent).toMatchObject({ decision: 'activate', addressed: true });

    const requests = await cedar.call('get_human_requests');
    expect(requests.requests[0]).toMatchObject({ status: 'answered', answer: { text: expect.stringContaining('Tuesday works') } });
    await saveShot(page, 'needs-you-answered');
    expect(app.problems).toEqual([]);
  });
});
