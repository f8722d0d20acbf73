// The agents roster with agents on real MCP connections: it shows why an agent was woken
// as it happens (a mention, a change to the task it proposed; another agent joining wakes
// no one), the person renames an agent (the roster shows the new name) and disconnects one
// (its waiting call ends at once, its next call gets W15, and the roster shows it disconnected).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentCursor, joinAgent, type Agent } from './lib/agents';
import { openApp, type AppSession } from './lib/app';
import { saveShot } from './lib/shots';

const W14 = 'This worker connection was replaced or disconnected. Reconnect explicitly with its worker_id.';
const W15 =
  'This agent session has ended. Call register_agent_session again to go on working in this room. If the same error returns, register with a new registration_key, or have the LetAgents MCP server restarted and register once more.';

let app: AppSession;
let juniper: Agent;
let cedar: Agent;
let fern: Agent | undefined;

beforeAll(async () => {
  app = await openApp();
  juniper = await joinAgent(app.serve.dataDir, { room: 'website-docs', name: 'Juniper' });
  cedar = await joinAgent(app.serve.dataDir, { room: 'website-docs', name: 'Cedar', clientName: 'codex' });
  await app.page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Agents', exact: true }).click();
  await app.page.getByRole('heading', { name: 'Agents', level: 1 }).waitFor();
}, 60_000);

afterAll(async () => {
  await juniper?.close();
  await cedar?.close();
  await fern?.close();
  await app?.close();
});

const agentRow = (name: string) => app.page.getByRole('listitem').filter({ has: app.page.getByText(name, { exact: true }) });

async function chooseAction(agentName: string, action: string): Promise<void> {
  await app.page.getByRole('button', { name: `Actions for ${agentName}` }).click();
  await app.page.getByRole('menu', { name: `Actions for ${agentName}` }).getByRole('menuitem', { name: action }).click();
}

describe('the agents roster', () => {
  it('shows why an agent was woken, live: a mention, then a change to the task it proposed', async () => {
    const { page } = app;
    await agentRow('Juniper').getByText('Claude Code').waitFor();
    const task = (await juniper.call('add_task', { title: 'Write the release notes' })).task.id as string;
    let cursor = await currentCursor(juniper);

    // A third agent joining is room noise: it does not wake Juniper (the wait runs on).
    const waiting = juniper.call('wait_for_messages', { after_message_id: cursor, timeout: 20_000 });
    fern = await joinAgent(app.serve.dataDir, { room: 'website-docs', name: 'Fern', clientName: 'gemini-cli' });
    const mention = await cedar.call('send_message', { text: '@Juniper the staging build is green' });
    const woke = await waiting;
    expect(woke.messages.map((m: { id: string }) => m.id)).toEqual([mention.id]);
    await agentRow('Juniper').getByText('Woken by a mention from Cedar').waitFor();
    cursor = woke.last_observed_message_id;

    const again = juniper.call('wait_for_messages', { after_message_id: cursor, timeout: 20_000 });
    await cedar.call('update_task', { task_id: task, status: 'accepted' });
    expect((await again).messages[0].activation.for_current_agent.reason).toBe('system_event');
    const latest = agentRow('Juniper').getByText(`Woken: ${task}, which it proposed, changed`);
    await latest.waitFor();

    await latest.click();
    const recent = agentRow('Juniper').getByRole('list', { name: 'Recent wakes' });
    await recent.getByText('@Juniper the staging build is green').waitFor();
    expect(await recent.getByRole('listitem').count()).toBe(2);
    // Cedar never waited, so it shows no wake at all.
    expect(await agentRow('Cedar').getByText(/^Woken/).count()).toBe(0);
    await saveShot(page, 'agent-wakes');
    expect(app.problems).toEqual([]);
  });

  it('renames an agent and shows the new name', async () => {
    const { page } = app;
    await agentRow('Juniper').getByText('Claude Code').waitFor();
    await chooseAction('Juniper', 'Rename…');
    const dialog = page.getByRole('dialog', { name: 'Rename Juniper' });
    await dialog.getByRole('textbox', { name: 'Name in this room' }).fill('Juniper-docs');
    await dialog.getByRole('button', { name: 'Rename' }).click();
    await dialog.waitFor({ state: 'detached' });
    await agentRow('Juniper-docs').waitFor();
    expect(await page.getByText('Juniper', { exact: true }).count()).toBe(0);
    // The agent speaks under its new name from now on.
    const sent = await juniper.call('send_message', { text: 'Renamed, thanks.' });
    expect(sent.sender).toMatch(/^Juniper-docs \| /);
    await saveShot(page, 'agent-renamed');
    expect(app.problems).toEqual([]);
  });

  it("disconnects an agent: its wait ends, its next call gets W15, the roster says so", async () => {
    const { page } = app;
    const first = await cedar.call('wait_for_messages', { timeout: 1000 });
    const waiting = cedar.call('wait_for_messages', { after_message_id: first.last_observed_message_id, timeout: 20_000 });

    await chooseAction('Cedar', 'Disconnect…');
    const dialog = page.getByRole('dialog', { name: 'Disconnect Cedar?' });
    await dialog.getByText('It keeps its tasks and can reconnect.', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Disconnect' }).click();
    await dialog.waitFor({ state: 'detached' });
    // Ended, it moves under Past agents, out of the counts (issue 35).
    await app.page.locator('details.roster-past summary').click();
    await app.page.getByRole('list', { name: 'Past agents' }).getByRole('listitem').filter({ hasText: 'Cedar' }).getByText('Disconnected').waitFor();

    expect(await waiting).toEqual({ isError: true, text: W14 });
    expect(await cedar.call('send_message', { text: 'Still here?' })).toEqual({ isError: true, text: W15 });
    // Juniper is untouched.
    expect((await juniper.call('send_message', { text: 'Carrying on.' })).id).toMatch(/^msg_\d+$/);
    expect(await agentRow('Juniper-docs').getByText('Disconnected').count()).toBe(0);
    await saveShot(page, 'agent-disconnected');
    expect(app.problems).toEqual([]);
  });
});
