// @vitest-environment happy-dom
// The room's chat: timeline states, live messages, the "N new messages" pill, threads, search.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appErrors } from '../../src/main/domain/errors';
import { roomRoute } from '../../src/renderer/src/app/navigation';
import { renderApp, never } from './support/renderApp';
import { DEMO_REPO_ROOM, demoState } from './support/demoSeed';
import { emptyState } from './support/fakeApi';
import { agentPerson, message, room } from './support/fakeData';
import { installLayout, scrollElement } from './support/layout';

beforeAll(installLayout);
afterEach(cleanup);

const juniper = agentPerson('Juniper');

function openDemoRoom() {
  return renderApp({ state: demoState(), route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }) });
}

describe('chat timeline', () => {
  it('shows messages with sender, tool badge and Markdown, and system events as compact lines', async () => {
    openDemoRoom();
    const log = await screen.findByRole('region', { name: 'Messages' });
    expect(await within(log).findByText(/Plan for the retries/)).toBeTruthy();
    expect(within(log).getAllByText('Codex').length).toBeGreaterThan(0);
    expect(log.querySelector('pre code')?.textContent).toContain('const delays');
    expect(within(log).getByText('Cedar joined the room.').closest('.compact-line')).toBeTruthy();
  });

  it('shows reply counts and opens the thread panel from them', async () => {
    openDemoRoom();
    await userEvent.click(await screen.findByRole('button', { name: /2 replies/ }));
    const thread = await screen.findByRole('complementary', { name: 'Thread' });
    expect(await within(thread).findByText('Sounds right to me too.')).toBeTruthy();
    expect(within(thread).getByText('2 replies')).toBeTruthy();
  });

  it('a reply sent in the thread panel appears there and bumps the count in the chat', async () => {
    const { api } = openDemoRoom();
    await userEvent.click(await screen.findByRole('button', { name: /2 replies/ }));
    const thread = await screen.findByRole('complementary', { name: 'Thread' });
    await within(thread).findByText('Sounds right to me too.');
    await userEvent.type(within(thread).getByRole('combobox', { name: 'Reply in thread' }), 'Agreed, same migration.{Enter}');
    expect(await within(thread).findByText('Agreed, same migration.')).toBeTruthy();
    expect(api.calls.find((c) => c.method === 'messages.send')?.input).toEqual({ roomId: DEMO_REPO_ROOM, place: 'local', text: 'Agreed, same migration.', threadRootNumber: 8 });
    expect(await screen.findByRole('button', { name: /3 replies/ })).toBeTruthy();
  });

  it("an agent's new message appears live while the reader is at the bottom", async () => {
    const { api } = openDemoRoom();
    await screen.findByText(/Pushing a fix/);
    act(() => void api.post(DEMO_REPO_ROOM, message(DEMO_REPO_ROOM, 0, juniper, 'Fix pushed, CI is running.')));
    expect(await screen.findByText('Fix pushed, CI is running.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /new message/ })).toBeNull();
  });

  it('shows "N new messages" instead of jumping when the reader has scrolled up', async () => {
    const { api } = openDemoRoom();
    const log = await screen.findByRole('region', { name: 'Messages' });
    await screen.findByText(/Pushing a fix/);
    act(() => scrollElement(log, 0));
    act(() => {
      api.post(DEMO_REPO_ROOM, message(DEMO_REPO_ROOM, 0, juniper, 'First new one.'));
      api.post(DEMO_REPO_ROOM, message(DEMO_REPO_ROOM, 0, juniper, 'Second new one.'));
    });
    const pill = await screen.findByRole('button', { name: '2 new messages' });
    await userEvent.click(pill);
    await waitFor(() => expect(screen.queryByRole('button', { name: /new messages/ })).toBeNull());
  });

  it('marks the room read up to the newest message the reader sees', async () => {
    const { api } = openDemoRoom();
    await screen.findByText(/Pushing a fix/);
    await waitFor(() => expect(api.calls.some((c) => c.method === 'rooms.markRead' && (c.input as { number: number }).number === 17)).toBe(true));
  });

  it('says so when a room has no messages yet', async () => {
    const state = emptyState();
    state.rooms = [room('Release planning')];
    renderApp({ state, route: roomRoute({ roomId: 'Release planning', place: 'local' }) });
    expect(await screen.findByRole('heading', { name: 'No messages yet' })).toBeTruthy();
  });

  it('shows a loading state while messages are on their way', async () => {
    renderApp({ state: demoState(), route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }), overrides: { 'messages.timeline': never } });
    expect(await screen.findByText('Loading messages…')).toBeTruthy();
  });

  it('shows the error and Try again when messages cannot load', async () => {
    renderApp({ state: demoState(), route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }), overrides: { 'messages.timeline': () => { throw appErrors.invalidInput('The database is locked.'); } } });
    expect(await screen.findByText('The database is locked.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('loads older messages when the reader scrolls to the top of a long room', async () => {
    const state = emptyState();
    state.rooms = [room('Long room', { lastNumber: 250 })];
    state.messages['Long room'] = Array.from({ length: 250 }, (_, i) => message('Long room', i + 1, juniper, `Message number ${i + 1}`));
    const { api } = renderApp({ state, route: roomRoute({ roomId: 'Long room', place: 'local' }) });
    const log = await screen.findByRole('region', { name: 'Messages' });
    await screen.findByText('Message number 250');
    act(() => scrollElement(log, 0));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'messages.timeline' && (c.input as { before?: number }).before === 151)).toBe(true));
  });

  it('an archived room says so and disables the composer', async () => {
    const state = demoState();
    state.rooms[0].archived = true;
    renderApp({ state, route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }) });
    const composer = await screen.findByRole('combobox', { name: /Message acme\/checkout-service/ });
    expect((composer as HTMLTextAreaElement).disabled).toBe(true);
    expect(composer.getAttribute('placeholder')).toMatch(/archived/);
  });
});

describe('search in a room', () => {
  it('Ctrl+F opens search in the desktop app; results show highlighted snippets; choosing one closes them and focuses the message', async () => {
    const { api } = renderApp({ state: demoState(), route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }), host: 'electron' });
    await screen.findByText(/Pushing a fix/);
    await userEvent.keyboard('{Control>}f{/Control}');
    const box = await screen.findByRole('searchbox', { name: 'Search messages in this room' });
    await userEvent.type(box, 'transaction');
    const hits = await screen.findAllByRole('button', { name: /transaction/ });
    expect(hits[0].querySelector('mark')?.textContent?.toLowerCase()).toBe('transaction');
    await userEvent.click(hits[hits.length - 1]);
    await waitFor(() => expect(document.querySelector('.message-highlight')?.textContent).toMatch(/transaction/));
    expect(screen.queryByRole('search')).toBeNull();
    expect(api.calls.some((c) => c.method === 'messages.search')).toBe(true);
  });

  it("in a browser Ctrl+F stays the browser's own; the header's search button opens search and keeps the query", async () => {
    openDemoRoom();
    await screen.findByText(/Pushing a fix/);
    await userEvent.keyboard('{Control>}f{/Control}');
    expect(screen.queryByRole('search')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Search this room' }));
    await userEvent.type(await screen.findByRole('searchbox', { name: 'Search messages in this room' }), 'transaction');
    await userEvent.click(screen.getByRole('button', { name: 'Close search' }));
    await userEvent.click(screen.getByRole('button', { name: 'Search this room' }));
    expect((await screen.findByRole('searchbox', { name: 'Search messages in this room' }) as HTMLInputElement).value).toBe('transaction');
  });

  it('says when nothing matches', async () => {
    renderApp({ state: demoState(), route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }), host: 'electron' });
    await screen.findByText(/Pushing a fix/);
    await userEvent.keyboard('{Meta>}f{/Meta}');
    await userEvent.type(await screen.findByRole('searchbox'), 'kubernetes');
    expect(await screen.findByText('No messages match.')).toBeTruthy();
  });
});
