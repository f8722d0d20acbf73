// @vitest-environment happy-dom
// Settings: theme, notifications, the approval time limit, client id, data folder, export, diagnostics, about.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appErrors } from '../../src/main/domain/errors';
import { announcements, renderApp, never, toasts } from './support/renderApp';
import { demoState } from './support/demoSeed';

afterEach(() => {
  cleanup();
  delete document.documentElement.dataset.theme;
});

const open = (state = demoState(), overrides = {}) => renderApp({ state, route: { view: 'settings' }, overrides });

describe('settings', () => {
  it('theme: choosing Dark forces the dark theme, Match system follows the system again', async () => {
    const { api } = open();
    await userEvent.click(await screen.findByRole('radio', { name: 'Dark' }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
    expect(api.state.settings.theme).toBe('dark');
    await userEvent.click(screen.getByRole('radio', { name: 'Match system' }));
    await waitFor(() => expect(document.documentElement.dataset.theme).toBeUndefined());
  });

  it('notifications can be turned off', async () => {
    const { api } = open();
    const section = await screen.findByRole('region', { name: 'Notifications' });
    const toggle = await within(section).findByRole('switch');
    expect((toggle as HTMLInputElement).checked).toBe(true);
    await userEvent.click(toggle);
    await waitFor(() => expect(api.state.settings.notifications).toBe(false));
    expect(within(section).getByText('Off')).toBeTruthy();
  });

  it('approvals: shows the time limit, refuses a bad one with the range and saves nothing, saves a good one', async () => {
    const { api } = open();
    const approvals = await screen.findByRole('region', { name: 'Approvals' });
    const input = within(approvals).getByRole('textbox', { name: 'Deny after (minutes)' }) as HTMLInputElement;
    expect(input.value).toBe('10');
    for (const bad of ['0', '1441', '2.5', 'soon', '']) {
      await userEvent.clear(input);
      if (bad) await userEvent.type(input, bad);
      await userEvent.click(within(approvals).getByRole('button', { name: 'Save' }));
      expect((await within(approvals).findByRole('alert')).textContent).toBe('Deny after (minutes): a whole number from 1 to 1,440.');
      expect(input.getAttribute('aria-invalid')).toBe('true');
    }
    expect(api.calls.filter((c) => c.method === 'settings.set')).toEqual([]);
    await userEvent.clear(input);
    await userEvent.type(input, '30{Enter}');
    await waitFor(() => expect(api.state.settings.approvalTimeoutMinutes).toBe(30));
    expect(api.calls.find((c) => c.method === 'settings.set')?.input).toEqual({ approvalTimeoutMinutes: 30 });
    expect(toasts().textContent).toContain('Approval time limit saved.');
    expect(within(approvals).queryByRole('alert')).toBeNull();
  });

  it('the client id from the environment is shown, not editable', async () => {
    const state = demoState();
    state.settings = { ...state.settings, githubClientId: 'Iv1.env', githubClientIdSource: 'environment' };
    open(state);
    expect(await screen.findByText('Iv1.env')).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: 'GitHub client id' })).toBeNull();
  });

  it('saves a client id', async () => {
    const { api } = open();
    const input = await screen.findByRole('textbox', { name: 'GitHub client id' });
    await userEvent.clear(input);
    await userEvent.type(input, 'Ov23liNEW{Enter}');
    await waitFor(() => expect(api.state.settings.githubClientId).toBe('Ov23liNEW'));
  });

  it('shows the data folder; in the desktop app, Open says when this window cannot open folders', async () => {
    renderApp({ state: demoState(), route: { view: 'settings' }, host: 'electron', overrides: { 'app.openDataFolder': () => ({ opened: false }) } });
    expect(await screen.findByText('/home/ada/.config/LetAgents')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Open' }));
    expect(await within(toasts()).findByText('This window cannot open folders; the path is shown here.')).toBeTruthy();
    expect(announcements()).toContain('This window cannot open folders; the path is shown here.');
  });

  it('exports a room as a file', async () => {
    const createObjectURL = vi.fn(() => 'blob:export');
    Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() });
    const { api } = open();
    await userEvent.selectOptions(await screen.findByRole('combobox', { name: 'Format' }), 'json');
    await userEvent.click(screen.getByRole('button', { name: 'Export' }));
    await waitFor(() => expect(createObjectURL).toHaveBeenCalled());
    expect(api.calls.find((c) => c.method === 'rooms.export')?.input).toEqual({ roomId: 'github.com/acme/checkout-service', place: 'local', format: 'json' });
  });

  it('diagnostics lists the doctor checks with their state', async () => {
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Run diagnostics' }));
    const checks = await screen.findAllByRole('listitem');
    const keychain = checks.find((c) => c.textContent?.includes('Keychain'))!;
    expect(within(keychain).getByText('Check')).toBeTruthy();
    expect(within(keychain).getByText('No Secret Service found.')).toBeTruthy();
  });

  it('about shows the version and who the person posts as', async () => {
    open();
    expect(await screen.findByText(/LetAgents 0\.1\.0/)).toBeTruthy();
    expect(screen.getByText('You post as Ada Lovelace (your computer user name).')).toBeTruthy();
  });

  it('shows loading and error states', async () => {
    open(demoState(), { 'settings.get': never });
    expect(await screen.findByText('Loading…')).toBeTruthy();
    cleanup();
    open(demoState(), { 'settings.get': () => { throw appErrors.invalidInput('Settings are unreadable.'); } });
    expect(await screen.findByText('Settings are unreadable.')).toBeTruthy();
  });
});
