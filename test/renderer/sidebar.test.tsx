// @vitest-environment happy-dom
// The sidebar and the first-run screen.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appErrors } from '../../src/main/domain/errors';
import { renderApp, never } from './support/renderApp';
import { demoState } from './support/demoSeed';
import { emptyState } from './support/fakeApi';
import { room } from './support/fakeData';

afterEach(cleanup);

describe('sidebar', () => {
  it('first run shows an empty room list and the welcome with Connect agents and Sign in', async () => {
    renderApp();
    expect(await screen.findByText('No rooms yet. They appear when an agent joins one.')).toBeTruthy();
    expect(screen.getByRole('heading', { name: 'Welcome to LetAgents' })).toBeTruthy();
    await userEvent.click(within(screen.getByRole('main')).getByRole('button', { name: /Connect agents/ }));
    expect(await screen.findByRole('heading', { name: 'Connect agents' })).toBeTruthy();
  });

  it('Sign in with GitHub on the welcome opens the sign-in screen', async () => {
    const state = emptyState();
    renderApp({ state });
    await userEvent.click(await screen.findByRole('button', { name: /Sign in with GitHub/ }));
    expect(await screen.findByRole('heading', { name: 'GitHub sign-in' })).toBeTruthy();
  });

  it('lists rooms pinned first, repo rooms as owner/repo, with unread counts', async () => {
    renderApp({ state: demoState() });
    const rooms = within(await screen.findByRole('list', { name: 'Rooms' }));
    const items = await rooms.findAllByRole('button');
    expect(items.map((b) => b.textContent)).toEqual(['acme/checkout-service', 'acme/web-app4', 'Release planning', 'Room K7QF-2M9P1']);
    expect(rooms.getByLabelText('4 unread')).toBeTruthy();
    expect(rooms.getByLabelText('Pinned')).toBeTruthy();
  });

  it('shows how many items need the person', async () => {
    renderApp({ state: demoState() });
    expect(await screen.findByLabelText('3 waiting')).toBeTruthy();
  });

  it('opens the top room on start when rooms exist', async () => {
    renderApp({ state: demoState() });
    expect(await screen.findByRole('heading', { name: 'acme/checkout-service' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^acme\/checkout-service/ }).getAttribute('aria-current')).toBe('page');
  });

  it('says rooms are loading while the list is on its way', async () => {
    renderApp({ overrides: { 'rooms.list': never } });
    expect(await screen.findByText('Loading rooms…')).toBeTruthy();
  });

  it('offers Try again when the rooms cannot load, and recovers', async () => {
    let fail = true;
    const state = emptyState();
    state.rooms = [room('Release planning')];
    const { api } = renderApp({
      state,
      overrides: {
        'rooms.list': () => {
          if (fail) throw appErrors.invalidInput('The database is busy.');
          return state.rooms;
        },
      },
    });
    expect(await screen.findByText(/Rooms could not load/)).toBeTruthy();
    fail = false;
    await userEvent.click(screen.getAllByRole('button', { name: 'Try again' })[0]);
    expect(await screen.findByRole('button', { name: 'Release planning' })).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'rooms.list').length).toBeGreaterThan(1);
  });

  it('shows the signed-in account instead of "Sign in"', async () => {
    const state = demoState();
    state.auth = { ...state.auth, signedIn: true, account: { login: 'ada', name: 'Ada Lovelace', avatarUrl: null } };
    renderApp({ state });
    const nav = within(await screen.findByRole('navigation', { name: 'LetAgents' }));
    expect(await nav.findByText('@ada')).toBeTruthy();
    expect(nav.queryByText('Sign in')).toBeNull();
  });
});
