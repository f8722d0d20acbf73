// @vitest-environment happy-dom
// Managed agents on the Agents page: adding one (with the refusal shown in place), their
// state and budget use, Run now / Pause / Resume / Stop / Remove, a held agent, and the
// activity log of its turns.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appErrors } from '../../src/main/domain/errors';
import { renderApp } from './support/renderApp';
import { demoState } from './support/demoSeed';
import { at, room } from './support/fakeData';
import { fakeManagedAgents, managedAgent } from './support/fakeManagedAgents';

afterEach(cleanup);

const open = (fake = fakeManagedAgents(), extra = {}) => renderApp({ state: demoState(), route: { view: 'agents' }, overrides: { ...fake.overrides, ...extra } });
const card = (name: string) => within(screen.getByRole('list', { name: 'Managed agents' })).getAllByRole('listitem').find((li) => li.querySelector('.agent-name')?.textContent === name)!;

describe('managed agents', () => {
  it('adds an agent with its CLI, room, folder, instructions, permissions and budget', async () => {
    const fake = fakeManagedAgents();
    const { api } = open(fake);
    expect(await screen.findByText(/None yet/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Add agent' }));
    const dialog = screen.getByRole('dialog', { name: 'Add agent' });
    await userEvent.click(await within(dialog).findByRole('radio', { name: 'Codex not installed' }));
    expect(within(dialog).getByText(/npm install -g @openai\/codex/)).toBeTruthy();
    await userEvent.click(within(dialog).getByRole('radio', { name: 'Claude Code' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name in the room' }), 'Willow');
    await userEvent.selectOptions(within(dialog).getByRole('combobox', { name: 'Room' }), 'acme/web-app');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Folder it works in' }), '/home/ada/web-app');
    await userEvent.type(within(dialog).getByRole('textbox', { name: /Role or standing instructions/ }), 'You review PRs.');
    await userEvent.click(within(dialog).getByRole('radio', { name: /Edit files in the folder/ }));
    const turns = within(dialog).getByRole('textbox', { name: 'Turns per hour' });
    await userEvent.clear(turns);
    await userEvent.type(turns, '6');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Tokens per day' }), '500000');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add agent' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.find((c) => c.method === 'agents.add')?.input).toEqual({
      provider: 'claude_code', name: 'Willow', roomId: 'github.com/acme/web-app', folder: '/home/ada/web-app', permissions: 'edit',
      instructions: 'You review PRs.', turnsPerHour: 6, dailyTokenCap: 500_000,
    });
    expect(await screen.findByText('0 of 6 turns this hour · 0 of 500,000 tokens today')).toBeTruthy();
  });

  it('checks the name as it is typed, and offers "Work in the folder itself" right under the permission that causes it (issue 35)', async () => {
    const { api } = open();
    await userEvent.click(await screen.findByRole('button', { name: 'Add agent' }));
    const dialog = screen.getByRole('dialog', { name: 'Add agent' });
    const name = within(dialog).getByRole('textbox', { name: 'Name in the room' });
    await userEvent.type(name, 'Fir Tree');
    // Before any submit: the parser's own rule, said under the name.
    expect(within(dialog).getByRole('alert').textContent).toBe('"Fir Tree" cannot be mentioned: @Fir Tree would reach "Fir". A name people can mention has only letters A–Z and a–z, digits, and _ . : / -, with no spaces (like FirTree).');
    expect(name.getAttribute('aria-invalid')).toBe('true');
    await userEvent.clear(name);
    await userEvent.type(name, 'FirTree');
    expect(within(dialog).queryByRole('alert')).toBeNull();
    const permissions = within(dialog).getByRole('group', { name: 'What it may do outside LetAgents' });
    expect(within(dialog).queryByRole('checkbox', { name: /Work in the folder itself/ })).toBeNull();
    await userEvent.click(within(permissions).getByRole('radio', { name: /Edit files in the folder/ }));
    expect(within(permissions).getByRole('checkbox', { name: /Work in the folder itself/ })).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'agents.add')).toBe(false);
  });

  it('opens from the Welcome screen\'s "Let LetAgents run one", and with no room yet makes the one it names (issue 35)', async () => {
    const fake = fakeManagedAgents();
    const state = demoState();
    state.rooms = [];
    const { api } = renderApp({ state, overrides: { ...fake.overrides, 'rooms.create': ({ name }: { name: string }) => room(name) } });
    await userEvent.click(await screen.findByRole('button', { name: /Let LetAgents run one/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Add agent' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name in the room' }), 'Willow');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'New room' }), 'release-work');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Folder it works in' }), '/home/ada/web-app');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add agent' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.find((c) => c.method === 'rooms.create')?.input).toEqual({ name: 'release-work', place: 'local' });
    expect(api.calls.find((c) => c.method === 'agents.add')?.input).toMatchObject({ name: 'Willow', roomId: 'release-work' });
  });

  it('checks the form first and shows the app refusal in place', async () => {
    open(fakeManagedAgents(), { 'agents.add': () => { throw appErrors.invalidInput('The folder /nope does not exist.'); } });
    await userEvent.click(await screen.findByRole('button', { name: 'Add agent' }));
    const dialog = screen.getByRole('dialog', { name: 'Add agent' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add agent' }));
    expect(within(dialog).getByRole('alert').textContent).toBe('Give the agent a name.');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name in the room' }), 'Willow');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Folder it works in' }), '/nope');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Tokens per day' }), 'lots');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add agent' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/whole number/);
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'Tokens per day' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add agent' }));
    expect(await within(dialog).findByText('The folder /nope does not exist.')).toBeTruthy();
  });

  it('shows state and budget use, and steers: Run now, Stop, Pause, Resume', async () => {
    const fake = fakeManagedAgents([
      managedAgent('Juniper', { state: 'running', usage: { turnsLastHour: 3, tokensToday: 12_400, costTodayUsd: 0.125 } }),
      managedAgent('Cedar', { provider: 'codex', providerName: 'Codex', desiredState: 'paused', state: 'paused' }),
    ]);
    const { api } = open(fake);
    await screen.findByText('3 of 20 turns this hour · 12,400 tokens today · $0.13 today');
    expect(within(card('Juniper')).getByText('Taking a turn')).toBeTruthy();
    expect(within(card('Cedar')).getByText('Paused')).toBeTruthy();
    await userEvent.click(within(card('Juniper')).getByRole('button', { name: 'Stop' }));
    await waitFor(() => expect(within(card('Juniper')).getByText('Idle')).toBeTruthy());
    expect(within(card('Juniper')).queryByRole('button', { name: 'Stop' })).toBeNull();
    await userEvent.click(within(card('Juniper')).getByRole('button', { name: 'Pause' }));
    await waitFor(() => expect(within(card('Juniper')).getByText('Paused')).toBeTruthy());
    await userEvent.click(within(card('Cedar')).getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(within(card('Cedar')).getByText('Idle')).toBeTruthy());
    await userEvent.click(within(card('Cedar')).getByRole('button', { name: 'Run now' }));
    await waitFor(() => expect(within(card('Cedar')).getByText('Taking a turn')).toBeTruthy());
    expect(api.calls.map((c) => c.method).filter((m) => m.startsWith('agents.') && m !== 'agents.list')).toEqual(['agents.stop', 'agents.pause', 'agents.resume', 'agents.runNow']);
  });

  it('a held agent says why, cannot run, and Resume brings it back', async () => {
    const fake = fakeManagedAgents([
      managedAgent('Juniper', { state: 'held', heldReason: 'It takes no turns: it used its budget of 20 turns per hour.', usage: { turnsLastHour: 20, tokensToday: 0, costTodayUsd: null } }),
    ]);
    open(fake);
    expect(await screen.findByText(/it used its budget of 20 turns per hour\. Resume gives it a fresh budget\./)).toBeTruthy();
    expect(within(card('Juniper')).getByText('Stopped: budget used')).toBeTruthy();
    expect((within(card('Juniper')).getByRole('button', { name: 'Run now' }) as HTMLButtonElement).disabled).toBe(true);
    await userEvent.click(within(card('Juniper')).getByRole('button', { name: 'Resume' }));
    await waitFor(() => expect(within(card('Juniper')).getByText('Idle')).toBeTruthy());
  });

  it("shows a turn's activity: why it started, tools, text, duration, tokens, cost and errors", async () => {
    const fake = fakeManagedAgents([managedAgent('Juniper')], {
      agent_juniper: [
        {
          number: 2, trigger: 'message', triggerText: 'msg_9 from Ada: "@Juniper why is CI red?"', status: 'failed', startedAt: at(10), endedAt: at(10.05),
          durationMs: 3_000, inputTokens: 1_200, outputTokens: 300, costUsd: 0.0123, error: 'Claude Code exited with code 1',
          entries: [
            { seq: 5, kind: 'trigger', text: 'msg_9 from Ada: "@Juniper why is CI red?"', createdAt: at(10) },
            { seq: 6, kind: 'tool_call', text: 'read_messages {"limit":20}', createdAt: at(10) },
            { seq: 7, kind: 'text', text: 'Looking at the last run.', createdAt: at(10) },
          ],
        },
      ],
    });
    open(fake);
    const toggle = await within(await waitFor(() => card('Juniper'))).findByRole('button', { name: 'Activity' });
    await userEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const turns = await screen.findByRole('list', { name: 'Turns, newest first' });
    expect(within(turns).getByText('Turn 2')).toBeTruthy();
    expect(within(turns).getByText('Failed · 3.0 s · 1,500 tokens · $0.0123')).toBeTruthy();
    expect(within(turns).getByText('read_messages {"limit":20}')).toBeTruthy();
    expect(within(turns).getByText('Looking at the last run.')).toBeTruthy();
    expect(within(turns).getByRole('note').textContent).toBe('Claude Code exited with code 1');
  });

  it('remove asks first and says what happens', async () => {
    const fake = fakeManagedAgents([managedAgent('Juniper')]);
    const { api } = open(fake);
    await userEvent.click(await within(await waitFor(() => card('Juniper'))).findByRole('button', { name: 'Remove…' }));
    const dialog = screen.getByRole('dialog', { name: 'Remove Juniper?' });
    expect(dialog.textContent).toMatch(/tasks there go back to Accepted/);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByText(/None yet/)).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'agents.remove')).toBe(true);
  });

  it("says first when a branch changes .gitattributes, and which files it shows as text although they would show as binary", async () => {
    const workspace = { kind: 'worktree' as const, path: '/data/worktrees/agent_juniper', repo: '/home/ada/projects/juniper', branch: 'letagents/juniper', base: 'main', note: null };
    const fake = fakeManagedAgents([managedAgent('Juniper', { permissions: 'edit', workspace })]);
    const diff = 'diff --git a/tools/run.sh b/tools/run.sh\nnew file mode 100644\n--- /dev/null\n+++ b/tools/run.sh\n@@ -0,0 +1 @@\n+rm -rf "$HOME"\n';
    open(fake, {
      'agents.changes': () => ({
        branch: 'letagents/juniper', base: 'main', path: workspace.path, added: 2, removed: 0, commits: 0, uncommittedFiles: 2, diff, diffCut: false,
        files: [{ path: '.gitattributes', added: 1, removed: 0, binary: false }, { path: 'tools/run.sh', added: 1, removed: 0, binary: false }],
        attributeFiles: ['.gitattributes'],
        shownAsText: ['tools/run.sh'],
      }),
    });
    await userEvent.click(await within(await waitFor(() => card('Juniper'))).findByRole('button', { name: 'Changes' }));
    const changes = await screen.findByRole('region', { name: 'Changes of Juniper' });
    const warning = await within(changes).findByRole('note', { name: 'Attribute files changed' });
    expect(warning.textContent).toBe('This branch changes .gitattributes: these decide how git shows, filters and merges files, in your repository too once merged. Read them before you merge.');
    expect(within(changes).getByText(/Shown as text although .gitattributes would show it as binary/).textContent).toBe('Shown as text although .gitattributes would show it as binary: tools/run.sh.');
    expect(within(changes).getByText('rm -rf "$HOME"')).toBeTruthy();
  });

  it('shows nothing where the host has no managed agents', async () => {
    renderApp({ state: demoState(), route: { view: 'agents' } });
    await screen.findByText(/Says: pushing the transaction fix/);
    expect(screen.queryByRole('heading', { name: 'Managed agents' })).toBeNull();
  });
});
