// @vitest-environment happy-dom
// The "You" badge in a team room: several people write there, and only the person's own
// messages (the app says which, per place) carry it (issue 24 item 9).
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import { roomRoute } from '../../src/renderer/src/app/navigation';
import { renderApp } from './support/renderApp';
import { emptyState } from './support/fakeApi';
import { message, person, room } from './support/fakeData';
import { installLayout } from './support/layout';

beforeAll(installLayout);
afterEach(cleanup);

describe('the "You" badge', () => {
  it('marks only the person\'s own messages in a team room, not the other people\'s', async () => {
    const state = emptyState();
    state.rooms = [room('platform', { place: 'acme', name: 'platform', lastNumber: 2 })];
    state.messages.platform = [
      message('platform', 1, person('ada@laptop'), 'Mine, from this machine.', { fromYou: true }),
      message('platform', 2, person('bob@desktop'), 'Bob writing from his machine.', { fromYou: false }),
    ];
    renderApp({ state, route: roomRoute({ roomId: 'platform', place: 'acme' }) });
    const log = await screen.findByRole('region', { name: 'Messages' });
    const line = async (text: string) => (await within(log).findByText(text)).closest('.message') as HTMLElement;
    expect(within(await line('Mine, from this machine.')).getByText('You')).toBeTruthy();
    const bobs = await line('Bob writing from his machine.');
    expect(within(bobs).getByText('bob@desktop')).toBeTruthy();
    expect(within(bobs).queryByText('You')).toBeNull();
  });
});
