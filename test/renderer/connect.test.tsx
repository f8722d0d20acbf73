// @vitest-environment happy-dom
// "Connect agents": a card per tool with its state, Connect/Disconnect, Copy config, the
// first prompt, and "not available yet" while the writers are not built.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appErrors } from '../../src/main/domain/errors';
import { announcements, renderApp, never, toasts } from './support/renderApp';
import { demoState } from './support/demoSeed';
import { emptyState } from './support/fakeApi';

afterEach(cleanup);

const open = (state = demoState(), overrides = {}) => renderApp({ state, route: { view: 'connect' }, overrides });
const card = (label: string) => screen.getByRole('heading', { name: label }).closest('li')!;

describe('Connect agents', () => {
  it('shows a card per tool with installed/connected state and the file it changes', async () => {
    open();
    await screen.findByRole('heading', { name: 'Claude Code' });
    expect(screen.getAllByRole('heading', { level: 3 }).map((h) => h.textContent)).toEqual(['Claude Code', 'Codex', 'Cursor', 'VS Code', 'Gemini CLI', 'Windsurf', 'Claude Desktop']);
    const claude = within(card('Claude Code'));
    expect(claude.getByText('Installed')).toBeTruthy();
    expect(claude.getByText('Set up')).toBeTruthy();
    expect(claude.getByText('~/.claude.json')).toBeTruthy();
    expect(within(card('VS Code')).getByText('Not installed')).toBeTruthy();
    expect(within(card('Claude Desktop')).getByText('One-click set-up for Claude Desktop is not available yet.')).toBeTruthy();
  });

  it('Connect writes the entry and the card turns set up, saying no agent has connected through it yet (issue 35)', async () => {
    const state = demoState();
    state.agents = state.agents.filter((a) => a.ide !== 'Codex');
    const { api } = open(state);
    await userEvent.click(within(await waitFor(() => card('Codex'))).getByRole('button', { name: 'Connect Codex' }));
    await waitFor(() => expect(within(card('Codex')).getByText('Set up')).toBeTruthy());
    expect(within(card('Codex')).queryByText(/Connected/)).toBeNull();
    expect(within(card('Codex')).getByText('No agent has connected through it yet: restart Codex, open it in your project and paste the prompt below.')).toBeTruthy();
    expect(api.calls.find((c) => c.method === 'setup.install')?.input).toEqual({ tool: 'codex' });
  });

  it("Claude Code's card asks, before Connect, to let it use LetAgents' tools without asking, and sends the answer (issue 35 item 3)", async () => {
    const state = demoState();
    const claudeTool = state.tools!.find((t) => t.tool === 'claude-code')!;
    Object.assign(claudeTool, { configured: false, toolsAllowed: false });
    const { api } = open(state);
    const claude = within(await waitFor(() => card('Claude Code')));
    const consent = claude.getByRole('checkbox', { name: /Let Claude Code use LetAgents' tools without asking each time/ });
    expect((consent as HTMLInputElement).checked).toBe(true);
    expect(claude.getByText('~/.claude/settings.json')).toBeTruthy();
    // No such question on other tools.
    expect(within(card('Codex')).queryByRole('checkbox')).toBeNull();
    await userEvent.click(consent);
    await userEvent.click(claude.getByRole('button', { name: 'Connect Claude Code' }));
    await waitFor(() => expect(within(card('Claude Code')).getByText('Set up')).toBeTruthy());
    expect(api.calls.find((c) => c.method === 'setup.install')?.input).toEqual({ tool: 'claude-code' });
    // Connected without it: the card says what happens, and offers the rule on its own.
    expect(within(card('Claude Code')).getByText(/Claude Code asks in its terminal before each LetAgents tool/)).toBeTruthy();
    await userEvent.click(within(card('Claude Code')).getByRole('button', { name: "Allow LetAgents' tools" }));
    await waitFor(() => expect(within(card('Claude Code')).queryByText(/asks in its terminal/)).toBeNull());
    expect(api.calls.filter((c) => c.method === 'setup.install').map((c) => c.input)).toEqual([{ tool: 'claude-code' }, { tool: 'claude-code', allowTools: true }]);
    expect(within(toasts()).getByText("Claude Code may now use LetAgents' tools without asking.")).toBeTruthy();
  });

  it('Connect on Claude Code with the box left ticked sends allowTools', async () => {
    const state = demoState();
    Object.assign(state.tools!.find((t) => t.tool === 'claude-code')!, { configured: false, toolsAllowed: false });
    const { api } = open(state);
    await userEvent.click(within(await waitFor(() => card('Claude Code'))).getByRole('button', { name: 'Connect Claude Code' }));
    await waitFor(() => expect(within(card('Claude Code')).getByText('Set up')).toBeTruthy());
    expect(api.calls.find((c) => c.method === 'setup.install')?.input).toEqual({ tool: 'claude-code', allowTools: true });
    expect(within(card('Claude Code')).queryByText(/asks in its terminal/)).toBeNull();
  });

  it('Disconnect asks, then removes the entry', async () => {
    const { api } = open();
    await userEvent.click(within(await waitFor(() => card('Claude Code'))).getByRole('button', { name: 'Disconnect Claude Code' }));
    const dialog = screen.getByRole('dialog', { name: 'Disconnect Claude Code?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Disconnect' }));
    await waitFor(() => expect(within(card('Claude Code')).getByText('Not set up')).toBeTruthy());
    expect(api.calls.some((c) => c.method === 'setup.uninstall')).toBe(true);
  });

  it('Copy config shows the exact snippet and where it goes', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    open();
    await userEvent.click(within(await waitFor(() => card('Cursor'))).getByRole('button', { name: 'Copy config for Cursor' }));
    const dialog = await screen.findByRole('dialog', { name: 'Set up Cursor by hand' });
    expect(within(dialog).getByText('Add this to ~/.cursor/mcp.json.')).toBeTruthy();
    expect(dialog.querySelector('pre')?.textContent).toContain('"letagents"');
    await userEvent.click(within(dialog).getByRole('button', { name: /Copy config/ }));
    expect(writeText).toHaveBeenCalledWith(expect.stringContaining('"mcpServers"'));
    expect(await within(dialog).findByText('Copied')).toBeTruthy();
  });

  it('a refused write is explained and the card stays as it was', async () => {
    open(demoState(), { 'setup.install': () => { throw appErrors.invalidInput('~/.codex/config.toml is not valid TOML; nothing was changed.'); } });
    await userEvent.click(within(await waitFor(() => card('Codex'))).getByRole('button', { name: 'Connect Codex' }));
    expect(await within(toasts()).findByText('~/.codex/config.toml is not valid TOML; nothing was changed.')).toBeTruthy();
    expect(announcements()).toContain('~/.codex/config.toml is not valid TOML; nothing was changed.');
    expect(within(card('Codex')).getByText('Not set up')).toBeTruthy();
  });

  it("says which of the tool's agents are connected now, from the roster (issue 35)", async () => {
    open();
    const claude = within(await waitFor(() => card('Claude Code')));
    // In the demo, Juniper (Claude Code) is connected; Willow (Gemini CLI) was, and is not now.
    expect(claude.getByText('Agent connected')).toBeTruthy();
    expect(claude.getByText(/^Connected now: Juniper/)).toBeTruthy();
    expect(within(card('Gemini CLI')).getByText(/^Its agents connected before \(Willow\)/)).toBeTruthy();
  });

  it('names every button with its tool, so a screen reader does not hear seven "Connect" (issue 35)', async () => {
    open();
    await screen.findByRole('heading', { name: 'Claude Code' });
    const names = screen.getAllByRole('button').map((b) => b.getAttribute('aria-label') ?? b.textContent).filter((n) => /Connect|Disconnect|Copy config/.test(n ?? ''));
    expect(new Set(names).size).toBe(names.length);
    expect(names).toContain('Connect Codex');
    expect(names).toContain('Copy config for Windsurf');
  });

  it('shows the first prompt with a copy button', async () => {
    open();
    expect(await screen.findByRole('heading', { name: 'Then tell your agent' })).toBeTruthy();
    expect(screen.getByText(/keep calling wait_for_messages/)).toBeTruthy();
  });

  it('says one-click set-up is not available yet when the writers are not built', async () => {
    open(emptyState());
    expect(await screen.findByRole('heading', { name: 'One-click set-up is not available yet' })).toBeTruthy();
    expect(await screen.findByRole('heading', { name: 'Then tell your agent' })).toBeTruthy();
  });

  it('shows loading and error states', async () => {
    open(demoState(), { 'setup.status': never });
    expect(await screen.findByText('Looking for agent tools…')).toBeTruthy();
    cleanup();
    open(demoState(), { 'setup.status': () => { throw appErrors.invalidInput('Home folder not readable.'); } });
    expect(await screen.findByText('Home folder not readable.')).toBeTruthy();
  });
});
