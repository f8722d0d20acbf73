// @vitest-environment happy-dom
// A room's Memory tab: facts listed, added, edited and retired.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appErrors } from '../../src/main/domain/errors';
import { roomRoute } from '../../src/renderer/src/app/navigation';
import { renderApp, never } from './support/renderApp';
import { DEMO_REPO_ROOM, demoState } from './support/demoSeed';

afterEach(cleanup);

const open = (state = demoState(), overrides = {}) => renderApp({ state, route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }, 'memory'), overrides });

describe('room memory', () => {
  it('lists facts with their kind and who added them', async () => {
    open();
    const fact = (await screen.findByRole('heading', { name: 'Webhook handlers must be idempotent' })).closest('li')!;
    expect(within(fact).getByText('Constraint')).toBeTruthy();
    expect(within(fact).getByText(/Juniper/)).toBeTruthy();
  });

  it('adds a fact as the person', async () => {
    const { api } = open();
    await userEvent.click(await screen.findByRole('button', { name: 'Add fact' }));
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Kind' }), 'goal');
    await userEvent.type(screen.getByRole('textbox', { name: 'Title' }), 'Keep p95 under 300 ms');
    await userEvent.type(screen.getByRole('textbox', { name: 'Text' }), 'Checkout API latency budget.');
    await userEvent.click(screen.getByRole('button', { name: 'Save fact' }));
    expect(await screen.findByRole('heading', { name: 'Keep p95 under 300 ms' })).toBeTruthy();
    expect(api.calls.find((c) => c.method === 'memory.add')?.input).toEqual({ roomId: DEMO_REPO_ROOM, place: 'local', category: 'goal', title: 'Keep p95 under 300 ms', body: 'Checkout API latency budget.' });
  });

  it('edits a fact in place', async () => {
    open();
    const fact = (await screen.findByRole('heading', { name: 'Ship retries before the May release' })).closest('li')!;
    await userEvent.click(within(fact).getByRole('button', { name: 'Edit' }));
    const title = screen.getByDisplayValue('Ship retries before the May release');
    await userEvent.clear(title);
    await userEvent.type(title, 'Ship retries before May 20');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { name: 'Ship retries before May 20' })).toBeTruthy();
  });

  it('retiring asks first, then hides the fact unless "Show retired" is on', async () => {
    open();
    const fact = (await screen.findByRole('heading', { name: 'Ship retries before the May release' })).closest('li')!;
    await userEvent.click(within(fact).getByRole('button', { name: 'Retire' }));
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Retire' }));
    await waitFor(() => expect(screen.queryByRole('heading', { name: 'Ship retries before the May release' })).toBeNull());
    await userEvent.click(screen.getByRole('checkbox', { name: 'Show retired' }));
    expect(await screen.findByRole('heading', { name: 'Ship retries before the May release' })).toBeTruthy();
    expect(screen.getByText('Retired')).toBeTruthy();
  });

  it('empty, loading and error states', async () => {
    const state = demoState();
    state.facts = {};
    open(state);
    expect(await screen.findByRole('heading', { name: 'Nothing remembered yet' })).toBeTruthy();
    cleanup();
    open(demoState(), { 'memory.list': never });
    expect(await screen.findByText('Loading memory…')).toBeTruthy();
    cleanup();
    open(demoState(), { 'memory.list': () => { throw appErrors.invalidInput('Memory is unavailable.'); } });
    expect(await screen.findByText('Memory is unavailable.')).toBeTruthy();
  });
});
