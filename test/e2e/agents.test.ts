// The agents roster with agents on real MCP connections: the person renames an agent (the
// roster shows the new name) and disconnects one (its waiting call ends at once, its next
// call gets W15, and the roster shows it disconnected).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAgent, type Agent } from './lib/agents';
import { openApp, type AppSession } from './lib/app';
import { saveShot } from './lib/shots';

const W14 = 'This worker connection was replaced or disconnected. Reconnect explicitly with its worker_id.';
const W15 =
  'This agent session has ended. Call register_agent_session again to go on working in this room. If the same error returns, register with a new registration_key, or have the LetAgents MCP server restarted and register once more.';

let app: AppSession;
let juniper: Agent;
let cedar: Agent;

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
  await app?.close();
});

const agentRow = (name: string) => app.page.getByRole('listitem').filter({ has: app.page.getByText(name, { exact: true }) });

async function chooseAction(agentName: string, action: string): Promise<void> {
  await app.page.getByRole('button', { name: `Actions for ${agentName}` }).click();
  await app.page.getByRole('menu', { name: `Actions for ${agentName}` }).getByRole('menuitem', { name: action }).click();
}

describe('the agents roster', () => {
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
    await agentRow('Cedar').getByText('Disconnected').waitFor();

    expect(await waiting).toEqual({ isError: true, text: W14 });
    expect(await cedar.call('send_message', { text: 'Still here?' })).toEqual({ isError: true, text: W15 });
    // Juniper is untouched.
    expect((await juniper.call('send_message', { text: 'Carrying on.' })).id).toMatch(/^msg_\d+$/);
    expect(await agentRow('Juniper-docs').getByText('Disconnected').count()).toBe(0);
    await saveShot(page, 'agent-disconnected');
    expect(app.problems).toEqual([]);
  });
});
