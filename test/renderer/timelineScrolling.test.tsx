// @vitest-environment happy-dom
// Scrolling back through a long room: older pages load above without moving what the reader
// sees, and the Markdown of loaded rows is ready before they scroll into view.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor } from '@testing-library/react';
import { roomRoute } from '../../src/renderer/src/app/navigation';
import { isMessageMarkdownReady } from '../../src/renderer/src/lib/markdown';
import type { TimelinePage } from '../../src/shared/types';
import { renderApp } from './support/renderApp';
import { emptyState } from './support/fakeApi';
import { agentPerson, message, room } from './support/fakeData';
import { timelinePage } from './support/fakeMessages';
import { installLayout, scrollElement } from './support/layout';

beforeAll(installLayout);
afterEach(cleanup);

const juniper = agentPerson('Juniper');
const ROOM = 'Long room';

function longRoom(count: number) {
  const state = emptyState();
  state.rooms = [room(ROOM, { lastNumber: count })];
  state.messages[ROOM] = Array.from({ length: count }, (_, i) => message(ROOM, i + 1, juniper, `Message **number ${i + 1}**`));
  return state;
}

describe('scrolling back through a long room', () => {
  it('prepares the Markdown of loaded messages that are not on screen yet', async () => {
    renderApp({ state: longRoom(250), route: roomRoute({ roomId: ROOM, place: 'local' }) });
    await screen.findByText('number 250');
    // The first page is 151–250; only the newest rows are drawn.
    expect(document.querySelector('article[data-number="151"]')).toBeNull();
    await waitFor(() => expect(isMessageMarkdownReady(151, 'Message **number 151**')).toBe(true));
  });

  it('says "Loading earlier messages…" while an older page is on its way, in a line that is there before and after', async () => {
    const state = longRoom(250);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    renderApp({
      state,
      route: roomRoute({ roomId: ROOM, place: 'local' }),
      overrides: {
        'messages.timeline': async (input): Promise<TimelinePage> => {
          if (input.before !== undefined) await held;
          return timelinePage(state.messages[ROOM], input);
        },
      },
    });
    const log = await screen.findByRole('region', { name: 'Messages' });
    await screen.findByText('number 250');
    const line = log.querySelector('.timeline-loading');
    expect(line?.getAttribute('aria-hidden')).toBe('true');

    act(() => scrollElement(log, 0));
    expect(await screen.findByText('Loading earlier messages…')).toBe(line);
    await act(async () => release());
    await waitFor(() => expect(screen.queryByText('Loading earlier messages…')).toBeNull());
    // Still in place (51 more messages remain above), so the rows below it never shifted.
    expect(log.querySelector('.timeline-loading')).toBe(line);
  });

  it('says "This is the start of the room." once the oldest page is in', async () => {
    const { api } = renderApp({ state: longRoom(150), route: roomRoute({ roomId: ROOM, place: 'local' }) });
    const log = await screen.findByRole('region', { name: 'Messages' });
    await screen.findByText('number 150');
    act(() => scrollElement(log, 0));
    expect(await screen.findByText('This is the start of the room.')).toBeTruthy();
    expect(log.querySelector('.timeline-loading')).toBeNull();
    expect(api.calls.filter((c) => c.method === 'messages.timeline' && (c.input as { before?: number }).before === 51)).toHaveLength(1);
  });
});
