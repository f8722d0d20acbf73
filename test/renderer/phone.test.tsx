// @vitest-environment happy-dom
// Phone access in the window (issue 37): Settings → Phone off by default, turned on it shows
// where the phone reaches the app and the certificate's fingerprint, Pair a phone shows the QR
// code, the link and the code, and paired phones can be unpaired after a confirmation; the
// notification target is saved and never shown back in full. And a paired phone's own page:
// Needs you first with a tab bar, no review moves, Pause and Resume for managed agents.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './support/renderApp';
import { emptyState } from './support/fakeApi';
import { emptyPhone, FAKE_FINGERPRINT } from './support/fakePhone';
import { needsYouItem } from './support/fakeData';

afterEach(cleanup);

describe('Settings → Phone', () => {
  it('is off until turned on; then it pairs a phone with a QR code, the link and a code', async () => {
    const { api } = renderApp({ route: { view: 'settings' } });
    const section = await screen.findByRole('region', { name: 'Phone' });
    const toggle = await within(section).findByRole('switch');
    expect((toggle as HTMLInputElement).checked).toBe(false);
    expect(within(section).queryByRole('button', { name: 'Pair a phone' })).toBeNull();
    await userEvent.click(toggle);
    await within(section).findByText('https://192.168.1.20:47821');
    expect(within(section).getAllByText(FAKE_FINGERPRINT)).toHaveLength(1);
    await userEvent.click(within(section).getByRole('button', { name: 'Pair a phone' }));
    const pairing = await within(section).findByRole('group', { name: 'Pair a phone' });
    expect(within(pairing).getByRole('img', { name: 'QR code of the pairing link https://192.168.1.20:47821/#pair=ABCDEFGH' })).toBeTruthy();
    expect(within(pairing).getByText('ABCD-EFGH')).toBeTruthy();
    // Two minutes from now: after 23:58 that is tomorrow, which the clock shows with its date ("until Dec 7, 12:01 AM").
    expect(within(pairing).getByText(/It works once, until [^.]*\d\d:\d\d/)).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'phone.setup').map((c) => c.input)).toEqual([{ enabled: true }]);
  });

  it('lists paired phones with where they were last seen, and unpairs one after asking', async () => {
    const state = emptyState();
    state.phone = emptyPhone([{ deviceId: 'd1', name: 'Pixel 7', pairedAt: '2026-01-01T10:00:00.000Z', pairedFrom: '192.168.1.33', lastSeenAt: '2026-01-01T10:05:00.000Z', lastSeenFrom: '192.168.1.33', connected: true }]);
    const { api } = renderApp({ state, route: { view: 'settings' } });
    const list = await screen.findByRole('list', { name: 'Paired phones' });
    expect(list.textContent).toContain('Pixel 7');
    expect(list.textContent).toContain('Open now');
    expect(list.textContent).toContain('from 192.168.1.33');
    await userEvent.click(within(list).getByRole('button', { name: 'Unpair' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unpair Pixel 7?' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Unpair' }));
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Paired phones' })).toBeNull());
    expect(api.calls.find((c) => c.method === 'phone.revoke')?.input).toEqual({ deviceId: 'd1' });
  });

  it('keeps the ntfy topic secret: saved once, shown without its topic', async () => {
    const state = emptyState();
    renderApp({ state, route: { view: 'settings' } });
    const section = await screen.findByRole('region', { name: 'Notifications to your phone' });
    await userEvent.type(await within(section).findByRole('textbox', { name: /Topic URL/ }), 'https://ntfy.sh/ada-very-secret-topic');
    await userEvent.click(within(section).getByRole('button', { name: 'Save' }));
    await within(section).findByText('https://ntfy.sh/…');
    expect(section.textContent).not.toContain('ada-very-secret-topic');
    expect((within(section).getByRole('textbox', { name: /Topic URL/ }) as HTMLInputElement).value).toBe('');
    expect(state.phone.targetUrl).toBe('https://ntfy.sh/ada-very-secret-topic');
    await userEvent.click(within(section).getByRole('checkbox', { name: 'A managed agent finished a turn' }));
    await waitFor(() => expect(state.phone.notify.kinds.turn_finished).toBe(true));
  });
});

describe("a paired phone's page", () => {
  it('opens on Needs you with a tab bar, and answers a review without moving the task', async () => {
    const state = emptyState();
    state.info = { ...state.info, host: 'phone', device: 'Pixel 7' };
    state.needsYou = [
      needsYouItem('lab', 'lab', 3, 'task_3: Fix login', { ref: { kind: 'task', roomId: 'lab', number: 3, place: 'local' }, reason: 'task_in_review' }),
    ];
    const { api } = renderApp({ state, route: { view: 'needsYou' }, host: 'phone' });
    const nav = await screen.findByRole('navigation', { name: 'LetAgents' });
    expect(within(nav).getAllByRole('button').map((b) => b.textContent)).toEqual(['Needs you1', 'Rooms', 'Agents', 'Automations']);
    await screen.findByRole('heading', { name: 'Needs you' });
    const card = await screen.findByRole('article');
    // Moving a task stays on the computer: the phone answers it.
    expect(within(card).queryByRole('button', { name: 'Approve' })).toBeNull();
    expect(within(card).getByRole('button', { name: 'Send answer' })).toBeTruthy();
    // A phone asks for nothing it may not read.
    for (const method of ['settings.get', 'teams.list', 'auth.status']) expect(api.calls.map((c) => c.method)).not.toContain(method);
  });
});
