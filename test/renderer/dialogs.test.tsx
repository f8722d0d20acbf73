// @vitest-environment happy-dom
// The shared dialog, form and side-panel shells as a person meets them: refusals in place,
// Enter sends, Escape closes the innermost thing, focus lands where the next step is and
// goes back where it came from when a panel closes.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { roomRoute } from '../../src/renderer/src/app/navigation';
import { renderApp } from './support/renderApp';
import { DEMO_REPO_ROOM, demoState } from './support/demoSeed';
import { installLayout } from './support/layout';

beforeAll(installLayout); // the chat's virtualised rows need layout numbers
afterEach(cleanup);

const openRoom = (tab: 'chat' | 'board' | 'memory', extra = {}) => renderApp({ state: demoState(), route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }, tab, extra) });

describe('form dialogs', () => {
  it('an empty name is refused in place and marks the field; Enter then sends the fixed name', async () => {
    const { api } = openRoom('board');
    await userEvent.click(await screen.findByRole('button', { name: 'Room actions' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Rename…' }));
    const dialog = screen.getByRole('dialog', { name: 'Rename room' });
    const input = within(dialog).getByRole('textbox', { name: 'Room name' });
    expect(document.activeElement).toBe(input);
    await userEvent.clear(input);
    await userEvent.type(input, '   {Enter}');
    expect(within(dialog).getByRole('alert').textContent).toBe('Type a name.');
    expect(input.getAttribute('aria-invalid')).toBe('true');
    expect(api.calls.some((c) => c.method === 'rooms.rename')).toBe(false);
    await userEvent.clear(input);
    await userEvent.type(input, 'payments{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.calls.find((c) => c.method === 'rooms.rename')?.input).toEqual({ roomId: DEMO_REPO_ROOM, place: 'local', name: 'payments' });
  });

  it('Escape closes New task without adding anything, and focus goes back to the New task button', async () => {
    const { api } = openRoom('board');
    const opener = await screen.findByRole('button', { name: 'New task' });
    await userEvent.click(opener);
    await userEvent.type(screen.getByRole('textbox', { name: 'Title' }), 'Half-typed{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(document.activeElement).toBe(opener);
    expect(api.calls.some((c) => c.method === 'tasks.create')).toBe(false);
  });

  it('a fact without text is refused in place and nothing is saved; Cancel then closes the form', async () => {
    const { api } = openRoom('memory');
    await userEvent.click(await screen.findByRole('button', { name: 'Add fact' }));
    await userEvent.type(screen.getByRole('textbox', { name: 'Title' }), 'A title alone{Enter}');
    expect(screen.getByRole('alert').textContent).toBe('A fact needs a title and some text.');
    expect(api.calls.some((c) => c.method === 'memory.add')).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('textbox', { name: 'Title' })).toBeNull();
  });
});

describe('action dialogs', () => {
  it('Hand off stays disabled until an agent is chosen', async () => {
    openRoom('board', { task: 12 });
    const drawer = await screen.findByRole('complementary', { name: /task_12/ });
    await userEvent.click(within(drawer).getByRole('button', { name: 'Reassign…' }));
    const dialog = screen.getByRole('dialog', { name: 'Reassign task_12' });
    const handOff = within(dialog).getByRole('button', { name: 'Hand off' }) as HTMLButtonElement;
    expect(handOff.disabled).toBe(true);
    await userEvent.click(within(dialog).getByRole('radio', { name: /Cedar/ }));
    expect(handOff.disabled).toBe(false);
  });

  it('a confirmation focuses its action; Escape closes only the confirmation, not the drawer behind it', async () => {
    const { api } = openRoom('board', { task: 12 });
    const drawer = await screen.findByRole('complementary', { name: /task_12/ });
    await userEvent.click(within(drawer).getByRole('button', { name: 'Release' }));
    const dialog = screen.getByRole('dialog', { name: 'Release task_12?' });
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Release task' }));
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('complementary', { name: /task_12/ })).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'tasks.releaseWork')).toBe(false);
  });
});

describe('side panels', () => {
  it('Escape inside the thread panel closes it', async () => {
    openRoom('chat', { threadRoot: 8 });
    const thread = await screen.findByRole('complementary', { name: 'Thread' });
    within(thread).getByRole('button', { name: 'Close thread' }).focus();
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Thread' })).toBeNull());
  });

  it('the thread panel takes focus into its composer and gives it back to the button that opened it', async () => {
    openRoom('chat');
    const opener = await screen.findByRole('button', { name: /2 replies/ });
    await userEvent.click(opener);
    const thread = await screen.findByRole('complementary', { name: 'Thread' });
    expect(document.activeElement).toBe(within(thread).getByRole('combobox', { name: 'Reply in thread' }));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('complementary', { name: 'Thread' })).toBeNull());
    expect(document.activeElement).toBe(opener);
  });

  it('the task drawer takes focus and gives it back to the card title that opened it', async () => {
    openRoom('board');
    const title = await screen.findByRole('button', { name: 'Retry logic for the payment webhook' });
    await userEvent.click(title);
    const drawer = await screen.findByRole('complementary', { name: /task_12/ });
    expect(drawer.contains(document.activeElement)).toBe(true);
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('complementary', { name: /task_12/ })).toBeNull());
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Retry logic for the payment webhook' }));
  });

  it('search (Ctrl+F in the desktop app) takes focus and Escape gives it back to the timeline', async () => {
    renderApp({ state: demoState(), route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }, 'chat'), host: 'electron' });
    const log = await screen.findByRole('region', { name: 'Messages' });
    log.focus();
    await userEvent.keyboard('{Control>}f{/Control}');
    const box = await screen.findByRole('searchbox', { name: 'Search messages in this room' });
    await waitFor(() => expect(document.activeElement).toBe(box));
    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(screen.queryByRole('search')).toBeNull());
    expect(document.activeElement).toBe(log);
  });
});
