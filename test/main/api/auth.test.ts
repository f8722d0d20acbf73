import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { GITHUB_TOKEN_ACCOUNT } from '../../../src/main/secrets/secretStore';
import { eventsOf, setUpApi, type ApiHarness } from './harness';

// The auth service polls GitHub no faster than its interval: the test moves the clock.
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-05-01T09:00:00.000Z') });
});
afterEach(() => {
  vi.useRealTimers();
});
const advance = (seconds: number) => vi.setSystemTime(Date.now() + seconds * 1000);

async function signIn(h: ApiHarness) {
  const flow = await h.call('auth.startDeviceFlow', {});
  h.github.approve();
  advance(flow.interval);
  return h.call('auth.poll', {});
}

describe('auth.status', () => {
  it('says signed out, with the keychain and client id state', async () => {
    const h = await setUpApi();
    expect(await h.call('auth.status', {})).toEqual({
      signedIn: false,
      account: null,
      keychain: { available: true, message: null },
      clientConfigured: true,
      pending: null,
    });
  });

  it('explains an unavailable keychain, and sign-in refuses to start', async () => {
    const h = await setUpApi();
    h.secrets.setUnavailable({ reason: 'no Secret Service on the session bus', fix: 'Start gnome-keyring.' });
    const expected = 'The OS keychain is unavailable (no Secret Service on the session bus). Start gnome-keyring.';
    expect((await h.call('auth.status', {})).keychain).toEqual({ available: false, message: expected });
    expect(await h.fail('auth.startDeviceFlow', {})).toEqual({ code: 'O3', message: expected });
  });

  it('says plainly when GitHub cannot be reached for want of a network, not with a resolver code', async () => {
    // A name that never resolves (.invalid): what a machine without a network gets for github.com.
    const h = await setUpApi({ env: { LETAGENTS_GITHUB_WEB_URL: 'https://github.invalid', LETAGENTS_GITHUB_API_URL: 'https://api.github.invalid' } });
    expect(await h.fail('auth.startDeviceFlow', {})).toEqual({
      code: 'O4',
      message: 'GitHub is not reachable (no network). Check your internet connection, then try again.',
    });
    // Agents keep the catalogued phrase, with the cause after it.
    expect(await h.app.auth.startDeviceAuth({ force: true })).toMatchObject({ success: false, error: expect.stringMatching(/^GitHub could not be reached: no network \((ENOTFOUND|EAI_AGAIN)\)$/) });
  });

  it('refuses input it does not take', async () => {
    const h = await setUpApi();
    expect(await h.fail('auth.status', { verbose: true })).toMatchObject({ code: 'invalid_input' });
  });
});

describe('auth.startDeviceFlow and auth.poll', () => {
  it('shows the code, waits for approval, then signs in; the person now posts under the GitHub name', async () => {
    const h = await setUpApi();
    const flow = await h.call('auth.startDeviceFlow', {});
    expect(flow).toEqual({
      userCode: expect.stringMatching(/^[0-9A-F]{4}-[0-9A-F]{4}$/),
      verificationUri: `${h.github.webUrl}/login/device`,
      expiresAt: '2026-05-01T09:15:00.000Z',
      expiresIn: 900,
      interval: 5,
    });
    expect((await h.call('auth.status', {})).pending).toEqual(flow);
    // Asked again without force, the pending code is reused.
    expect((await h.call('auth.startDeviceFlow', {})).userCode).toBe(flow.userCode);

    expect(await h.call('auth.poll', {})).toEqual({ status: 'pending', message: null, account: null, interval: 5 });
    h.github.approve();
    advance(5);
    const done = await h.call('auth.poll', {});
    expect(done).toMatchObject({ status: 'authorized', account: { login: 'ada', name: 'Ada Lovelace', avatarUrl: 'https://avatars.example/ada.png' }, interval: null });
    expect(done.message).toContain('Signed in to GitHub as ada.');

    const status = await h.call('auth.status', {});
    expect(status).toMatchObject({ signedIn: true, account: { login: 'ada' }, pending: null });
    expect(await h.call('app.info', {})).toMatchObject({ person: { name: 'Ada Lovelace', source: 'github' } });
    await h.room('lab');
    expect((await h.call('messages.send', { roomId: 'lab', text: 'hi' })).sender.name).toBe('Ada Lovelace');
    expect(eventsOf(h.events, 'auth.changed').length).toBeGreaterThan(0);
    // Nothing the UI received carries the token.
    const token = h.github.issuedTokens.at(-1)!;
    expect(JSON.stringify([flow, done, status, h.events])).not.toContain(token);
  });

  it('reports a denied sign-in and an expired code', async () => {
    const h = await setUpApi();
    const flow = await h.call('auth.startDeviceFlow', {});
    h.github.deny();
    advance(flow.interval);
    expect(await h.call('auth.poll', {})).toEqual({ status: 'denied', message: 'The sign-in request was denied on GitHub.', account: null, interval: null });
    await h.call('auth.startDeviceFlow', { force: true });
    advance(901);
    expect(await h.call('auth.poll', {})).toEqual({ status: 'expired', message: 'The code expired. Run start_device_auth again.', account: null, interval: null });
  });

  it('says when nothing is pending, or no client id is configured', async () => {
    const h = await setUpApi();
    expect(await h.fail('auth.poll', {})).toEqual({ code: 'O2', message: 'No pending device authorization. Run start_device_auth first.' });
    const unconfigured = await setUpApi({ env: { LETAGENTS_GITHUB_CLIENT_ID: '' } });
    expect(await unconfigured.fail('auth.startDeviceFlow', {})).toEqual({
      code: 'O1',
      message: 'GitHub sign-in is not configured: set a GitHub OAuth client id.',
    });
    expect((await unconfigured.call('auth.status', {})).clientConfigured).toBe(false);
  });

  it('refuses a bad force flag', async () => {
    const h = await setUpApi();
    expect(await h.fail('auth.startDeviceFlow', { force: 'yes' })).toMatchObject({ code: 'invalid_input' });
    expect(h.github.requestsTo('/login/device/code')).toEqual([]);
  });
});

describe('auth.cancel and auth.signOut', () => {
  it('forgets a pending sign-in', async () => {
    const h = await setUpApi();
    await h.call('auth.startDeviceFlow', {});
    expect(await h.call('auth.cancel', {})).toEqual({ removed: true });
    expect(await h.call('auth.cancel', {})).toEqual({ removed: false });
    expect((await h.call('auth.status', {})).pending).toBeNull();
  });

  it('signs out: the token leaves the keychain and the account is forgotten', async () => {
    const h = await setUpApi();
    expect((await signIn(h)).status).toBe('authorized');
    expect(h.secrets.entries.has(GITHUB_TOKEN_ACCOUNT)).toBe(true);
    expect(await h.call('auth.signOut', {})).toEqual({ removed: true });
    expect(h.secrets.entries.has(GITHUB_TOKEN_ACCOUNT)).toBe(false);
    expect(await h.call('auth.status', {})).toMatchObject({ signedIn: false, account: null });
    expect((await h.call('app.info', {})).person.source).toBe('os');
    expect(await h.call('auth.signOut', {})).toEqual({ removed: false });
  });
});
