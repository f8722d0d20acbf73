// @vitest-environment happy-dom
// GitHub sign-in: the code, Copy code, Open GitHub, countdown, waiting, and every end state.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp, never } from './support/renderApp';
import { emptyState, type FakeState } from './support/fakeApi';

afterEach(cleanup);

function open(change: (state: FakeState) => void = () => {}, overrides = {}) {
  const state = emptyState();
  change(state);
  return renderApp({ state, route: { view: 'signIn' }, overrides });
}

describe('GitHub sign-in', () => {
  it('shows the code large with Copy code, Open GitHub, a countdown and "Waiting for approval…", then ends signed in', async () => {
    const { api } = open((s) => (s.pollScript = ['pending', 'slow_down', 'authorized']));
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with GitHub' }));
    expect(await screen.findByText('WDJB-MJHT')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Copy code/ })).toBeTruthy();
    const bar = screen.getByRole('progressbar', { name: 'Time left for this code' });
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeGreaterThan(880);
    expect(screen.getByText(/Code expires in 1[45]:/)).toBeTruthy();
    expect(screen.getByText('Waiting for approval…')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: /Open GitHub/ }));
    expect(api.calls.find((c) => c.method === 'app.openExternal')?.input).toEqual({ url: 'https://github.com/login/device' });
    expect(await screen.findByRole('heading', { name: 'Ada Lovelace' }, { timeout: 8000 })).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'auth.poll')).toHaveLength(3);
    const nav = within(screen.getByRole('navigation', { name: 'LetAgents' }));
    expect(nav.getByText('@ada')).toBeTruthy();
  }, 15_000);

  it('denied on GitHub: says so and offers Try again', async () => {
    open((s) => (s.pollScript = ['denied']));
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with GitHub' }));
    expect(await screen.findByText('The sign-in was denied on GitHub.', {}, { timeout: 4000 })).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('WDJB-MJHT')).toBeTruthy();
  });

  it('expired: says the code expired and offers Try again', async () => {
    open((s) => (s.pollScript = ['expired']));
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with GitHub' }));
    expect(await screen.findByText('The code expired before it was approved.', {}, { timeout: 4000 })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('Cancel sign-in forgets the pending code', async () => {
    const { api } = open();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with GitHub' }));
    await userEvent.click(await screen.findByRole('button', { name: 'Cancel sign-in' }));
    expect(await screen.findByRole('button', { name: 'Sign in with GitHub' })).toBeTruthy();
    expect(api.state.auth.pending).toBeNull();
  });

  it('keychain unavailable: explains why and how to fix it, and offers no sign-in', async () => {
    open((s) => (s.auth.keychain = { available: false, message: 'No Secret Service provider: install and unlock gnome-keyring or KWallet.' }));
    expect(await screen.findByRole('heading', { name: 'Sign-in needs your system keychain' })).toBeTruthy();
    // The fix is said once: the core's own words for this system, not a second, general one.
    expect(screen.getAllByText(/install and unlock/i)).toHaveLength(1);
    expect(screen.getByText('Everything else in LetAgents works without signing in.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Sign in with GitHub' })).toBeNull();
  });

  it('no client id: explains how to create one, and saving one enables sign-in', async () => {
    const { api } = open((s) => {
      s.auth.clientConfigured = false;
      s.settings.githubClientId = null;
    });
    expect(await screen.findByRole('heading', { name: 'Create a GitHub OAuth App first' })).toBeTruthy();
    const steps = [...document.querySelectorAll('.steps li')].map((li) => li.textContent);
    expect(steps).toHaveLength(3);
    expect(steps[0]).toContain('New OAuth App');
    expect(steps[1]).toMatch(/tick Enable Device Flow\. The form also requires an authorization callback URL: enter http:\/\/127\.0\.0\.1; LetAgents never uses it\./);
    expect(steps[2]).toMatch(/Client ID .*paste it below/);
    await userEvent.type(screen.getByRole('textbox', { name: 'GitHub client id' }), 'Ov23liABC');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('button', { name: 'Sign in with GitHub' })).toBeTruthy();
    expect(api.calls.find((c) => c.method === 'settings.set')?.input).toEqual({ githubClientId: 'Ov23liABC' });
  });

  it('a bad client id is refused in place', async () => {
    open((s) => (s.auth.clientConfigured = false));
    await userEvent.type(await screen.findByRole('textbox', { name: 'GitHub client id' }), 'not valid!');
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText(/only letters, digits, dots, dashes and underscores/)).toBeTruthy();
  });

  it('signed in: shows who, and Sign out signs out', async () => {
    const { api } = open((s) => (s.auth = { ...s.auth, signedIn: true, account: { login: 'ada', name: 'Ada Lovelace', avatarUrl: null } }));
    expect(await screen.findByText(/Signed in to GitHub as @ada/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Sign out' }));
    expect(await screen.findByRole('button', { name: 'Sign in with GitHub' })).toBeTruthy();
    expect(api.calls.some((c) => c.method === 'auth.signOut')).toBe(true);
  });

  it('resumes a sign-in already waiting (the code stays on screen after a reload)', async () => {
    open((s) => (s.auth.pending = { userCode: 'ABCD-EFGH', verificationUri: 'https://github.com/login/device', expiresAt: new Date(Date.now() + 60_000).toISOString(), expiresIn: 900, interval: 5 }));
    expect(await screen.findByText('ABCD-EFGH')).toBeTruthy();
  });

  it('shows loading while the sign-in state loads', async () => {
    open(() => {}, { 'auth.status': never });
    expect(await screen.findByText('Loading…')).toBeTruthy();
  });

  it('Copy code puts the code on the clipboard', async () => {
    const writeText = vi.fn(async () => {});
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    open();
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in with GitHub' }));
    await userEvent.click(await screen.findByRole('button', { name: /Copy code/ }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('WDJB-MJHT'));
  });
});
