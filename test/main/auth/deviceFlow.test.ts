import { describe, expect, it } from 'vitest';
import { getAccountRow } from '../../../src/main/store/accountQueries';
import { OAUTH_APP_HELP } from '../../../src/main/auth/githubSettings';
import { FAKE_CLIENT_ID } from '../../support/fakeGitHub';
import { APP_VERSION, setUp, signIn } from './harness';

const O1 = 'GitHub sign-in is not configured: set a GitHub OAuth client id.';
const O2 = 'No pending device authorization. Run start_device_auth first.';

describe('starting GitHub sign-in', () => {
  it('asks GitHub for a device code and shows the code, page and expiry', async () => {
    const h = await setUp();
    const started = await h.auth.startDeviceAuth({ roomId: 'github.com/ada/engine' });
    expect(started).toEqual({
      success: true,
      request_id: expect.stringMatching(/^device_[0-9a-f]{32}$/),
      user_code: expect.stringMatching(/^[0-9A-F]{4}-[0-9A-F]{4}$/),
      verification_uri: `${h.github.webUrl}/login/device`,
      interval: 5,
      expires_in: 900,
      expires_at: '2026-05-01T09:15:00.000Z',
      suggested_room_id: 'github.com/ada/engine',
      message: `Open ${h.github.webUrl}/login/device and enter code ${(started as { user_code: string }).user_code}, then run poll_device_auth.`,
    });
    const [request] = h.github.requestsTo('/login/device/code');
    expect(request.form).toEqual({ client_id: FAKE_CLIENT_ID, scope: 'read:user' });
    expect(request.headers.accept).toBe('application/json');
    expect(request.headers['user-agent']).toBe(`LetAgents-Desktop/${APP_VERSION}`);
  });

  it('uses the configured scopes', async () => {
    const h0 = await setUp();
    const h = await setUp({ env: h0.github.env({ LETAGENTS_GITHUB_SCOPES: 'read:user repo' }) });
    await h.auth.startDeviceAuth();
    expect(h0.github.requestsTo('/login/device/code')[0].form.scope).toBe('read:user repo');
  });

  it('reuses a live pending request instead of asking GitHub again', async () => {
    const h = await setUp();
    const first = await h.auth.startDeviceAuth({ suggestedRoomId: 'lobby' });
    h.advance(60);
    const again = await h.auth.startDeviceAuth();
    expect(again).toMatchObject({ success: true, reused_existing_request: true, expires_in: 840, suggested_room_id: 'lobby' });
    expect(again).toMatchObject({ request_id: (first as { request_id: string }).request_id });
    expect(h.github.requestsTo('/login/device/code')).toHaveLength(1);
  });

  it('with force replaces the pending request with a new one', async () => {
    const h = await setUp();
    const first = await h.auth.startDeviceAuth();
    const forced = await h.auth.startDeviceAuth({ force: true });
    expect(forced).not.toHaveProperty('reused_existing_request');
    expect((forced as { request_id: string }).request_id).not.toBe((first as { request_id: string }).request_id);
    const stale = await h.auth.pollDeviceAuth({ requestId: (first as { request_id: string }).request_id });
    expect(stale.result).toEqual({ success: false, error: O2 });
  });

  it('without a client id explains how to create a GitHub OAuth App and calls nobody', async () => {
    const h0 = await setUp();
    const env = h0.github.env();
    delete env.LETAGENTS_GITHUB_CLIENT_ID;
    const h = await setUp({ env });
    const started = await h.auth.startDeviceAuth();
    expect(started).toEqual({ success: false, error: O1, hint: OAUTH_APP_HELP });
    expect(OAUTH_APP_HELP).toContain('Enable Device Flow');
    expect(h0.github.requests).toHaveLength(0);
    const status = await h.auth.status();
    expect(status).toMatchObject({ clientConfigured: false, clientHelp: OAUTH_APP_HELP });
  });

  it('takes the client id from the app settings when the environment has none', async () => {
    const h0 = await setUp();
    const env = h0.github.env();
    delete env.LETAGENTS_GITHUB_CLIENT_ID;
    const h = await setUp({ env });
    await h.auth.setClientId(FAKE_CLIENT_ID);
    expect(await h.auth.startDeviceAuth()).toMatchObject({ success: true });
    expect(h0.github.requestsTo('/login/device/code')[0].form.client_id).toBe(FAKE_CLIENT_ID);
  });

  it('refuses a verification page outside the GitHub web origin', async () => {
    const h = await setUp();
    h.github.nextDeviceCode = { verification_uri: 'https://evil.example/login/device' };
    const started = await h.auth.startDeviceAuth();
    expect(started).toEqual({
      success: false,
      error: `GitHub could not be reached: the verification page https://evil.example/login/device is not on ${h.github.webUrl}`,
    });
    expect((await h.auth.onboardingStatus()).pending_device_auth).toBeNull();
  });

  it('refuses plain http GitHub URLs other than the loopback', async () => {
    const h0 = await setUp();
    const h = await setUp({ env: h0.github.env({ LETAGENTS_GITHUB_WEB_URL: 'http://github.example' }) });
    expect(await h.auth.startDeviceAuth()).toEqual({
      success: false,
      error: 'GitHub could not be reached: LETAGENTS_GITHUB_WEB_URL must be an https URL (plain http only for 127.0.0.1 or localhost): http://github.example',
    });
  });

  it('reports GitHub refusing the device code request', async () => {
    const h = await setUp();
    h.github.nextDeviceCode = { status: 200, body: { error: 'device_flow_disabled', error_description: 'Device flow must be enabled for this App.' } };
    expect(await h.auth.startDeviceAuth()).toEqual({
      success: false,
      error: 'GitHub could not be reached: HTTP 200: Device flow must be enabled for this App.',
    });
  });

  it('reports a network failure when GitHub is down', async () => {
    const h = await setUp();
    await h.github.close();
    const started = await h.auth.startDeviceAuth();
    expect(started).toMatchObject({ success: false, error: expect.stringMatching(/^GitHub could not be reached: ECONNREFUSED/) });
  });

  it('gives up on a GitHub that does not answer', async () => {
    const h = await setUp({ timeoutMs: 300 });
    h.github.hang = true;
    expect(await h.auth.startDeviceAuth()).toEqual({ success: false, error: 'GitHub could not be reached: no answer within 0.3 s' });
  });

  it('is refused up front when the keychain cannot keep a token', async () => {
    const h = await setUp();
    h.memory.setUnavailable({ reason: 'no Secret Service', fix: 'Install and unlock gnome-keyring or KWallet.' });
    expect(await h.auth.startDeviceAuth()).toEqual({
      success: false,
      error: 'keychain_unavailable',
      message: 'The OS keychain is unavailable (no Secret Service). Install and unlock gnome-keyring or KWallet.',
    });
    expect(h.github.requests).toHaveLength(0);
  });
});

describe('polling GitHub sign-in', () => {
  it('without a pending request answers O2', async () => {
    const h = await setUp();
    expect((await h.auth.pollDeviceAuth()).result).toEqual({ success: false, error: O2 });
  });

  it('with an unknown request id answers O2', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    h.advance(5);
    expect((await h.auth.pollDeviceAuth({ requestId: 'device_00000000000000000000000000000000' })).result).toEqual({ success: false, error: O2 });
    expect(h.github.requestsTo('/login/oauth/access_token')).toHaveLength(0);
  });

  it('before the interval has passed answers pending without calling GitHub', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    h.advance(2);
    expect((await h.auth.pollDeviceAuth()).result).toEqual({ success: true, status: 'pending', interval: 5, expires_in: 898 });
    expect(h.github.requestsTo('/login/oauth/access_token')).toHaveLength(0);
  });

  it('while the person has not approved yet answers pending after asking GitHub', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    h.advance(5);
    expect((await h.auth.pollDeviceAuth()).result).toEqual({ success: true, status: 'pending', interval: 5, expires_in: 895 });
    const [poll] = h.github.requestsTo('/login/oauth/access_token');
    expect(poll.form).toEqual({
      client_id: FAKE_CLIENT_ID,
      device_code: expect.any(String),
      grant_type: 'urn:ietf:params:oauth:grant-type:device_code',
    });
  });

  it('after approval stores the token in the keychain and caches the account', async () => {
    const h = await setUp();
    const started = await h.auth.startDeviceAuth({ roomId: 'github.com/ada/engine' });
    h.github.approve();
    h.advance(5);
    const outcome = await h.auth.pollDeviceAuth({ requestId: (started as { request_id: string }).request_id });
    expect(outcome).toEqual({
      result: {
        success: true,
        status: 'authorized',
        account: { id: 583231, login: 'ada', display_name: 'Ada Lovelace', avatar_url: 'https://avatars.example/ada.png' },
        expires_at: null,
        hint: 'Signed in to GitHub as ada. New agents are labelled "Ada Lovelace\'s agent".',
      },
      suggestedRoomId: 'github.com/ada/engine',
    });
    expect(h.memory.entries.get('github-token')).toBe(h.github.issuedTokens[0]);
    expect(await h.store.read(getAccountRow)).toMatchObject({ github_id: 583231, login: 'ada', display_name: 'Ada Lovelace', expires_at: null });
    expect(h.events).toEqual(['auth.changed']);
    const [user] = h.github.requestsTo('/api/user');
    expect(user.headers).toMatchObject({
      authorization: `Bearer ${h.github.issuedTokens[0]}`,
      accept: 'application/vnd.github+json',
      'user-agent': `LetAgents-Desktop/${APP_VERSION}`,
    });
    expect((await h.auth.pollDeviceAuth()).result).toEqual({ success: false, error: O2 });
  });

  it('records when an expiring token runs out', async () => {
    const h = await setUp();
    h.github.tokenExpiresIn = 28800;
    await signIn(h);
    expect(await h.auth.account()).toMatchObject({ login: 'ada' });
    expect((await h.auth.onboardingStatus()).token_expires_at).toBe('2026-05-01T17:00:05.000Z');
  });

  it('on slow_down waits five seconds longer, or as long as GitHub asks', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    h.github.slowDownOnce();
    h.advance(5);
    expect((await h.auth.pollDeviceAuth()).result).toEqual({ success: true, status: 'slow_down', interval: 10, expires_in: 895 });
    h.advance(5);
    expect((await h.auth.pollDeviceAuth()).result).toMatchObject({ status: 'pending', interval: 10 });
    expect(h.github.requestsTo('/login/oauth/access_token')).toHaveLength(1);
    h.github.slowDownOnce(30);
    h.advance(5);
    expect((await h.auth.pollDeviceAuth()).result).toMatchObject({ status: 'slow_down', interval: 30 });
    h.github.approve();
    h.advance(29);
    expect((await h.auth.pollDeviceAuth()).result).toMatchObject({ status: 'pending', interval: 30 });
    h.advance(1);
    expect((await h.auth.pollDeviceAuth()).result).toMatchObject({ status: 'authorized' });
  });

  it('when the person denies it says so, clears the request and keeps an existing sign-in', async () => {
    const h = await setUp();
    await signIn(h);
    await h.auth.startDeviceAuth();
    h.github.deny();
    h.advance(5);
    expect((await h.auth.pollDeviceAuth()).result).toEqual({ success: false, status: 'denied', error: 'The sign-in request was denied on GitHub.' });
    const status = await h.auth.onboardingStatus();
    expect(status).toMatchObject({ authenticated: true, pending_device_auth: null, account: { login: 'ada' } });
  });

  it('when GitHub says the code expired it asks to start again', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    h.github.expire();
    h.advance(5);
    expect((await h.auth.pollDeviceAuth()).result).toEqual({ success: false, status: 'expired', error: 'The code expired. Run start_device_auth again.' });
    expect((await h.auth.pollDeviceAuth()).result).toEqual({ success: false, error: O2 });
  });

  it('when the code has expired locally it answers expired without calling GitHub', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    h.advance(900);
    expect((await h.auth.pollDeviceAuth()).result).toEqual({ success: false, status: 'expired', error: 'The code expired. Run start_device_auth again.' });
    expect(h.github.requestsTo('/login/oauth/access_token')).toHaveLength(0);
    expect(await h.auth.startDeviceAuth()).not.toHaveProperty('reused_existing_request');
  });

  it('after cancel there is nothing to poll', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    expect(h.auth.cancel()).toBe(true);
    h.github.approve();
    h.advance(5);
    expect((await h.auth.pollDeviceAuth()).result).toEqual({ success: false, error: O2 });
    expect(h.github.requestsTo('/login/oauth/access_token')).toHaveLength(0);
    expect(h.memory.entries.size).toBe(0);
  });

  it('on a network failure reports status error and lets the poll be retried', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    const { github } = h;
    await github.close();
    h.advance(5);
    const { result } = await h.auth.pollDeviceAuth();
    expect(result).toMatchObject({ success: false, status: 'error', error: expect.stringMatching(/^GitHub could not be reached: ECONNREFUSED/) });
    expect((await h.auth.onboardingStatus()).pending_device_auth).not.toBeNull();
  });

  it('on an unexpected GitHub error reports status error', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    h.github.answerPollOnce(200, { error: 'incorrect_device_code', error_description: 'The device_code provided is not valid.' });
    h.advance(5);
    expect((await h.auth.pollDeviceAuth()).result).toEqual({
      success: false,
      status: 'error',
      error: 'GitHub could not be reached: HTTP 200: The device_code provided is not valid.',
    });
  });

  it('when the keychain fails at the last step answers keychain_unavailable and stays signed out', async () => {
    const h = await setUp();
    await h.auth.startDeviceAuth();
    h.github.approve();
    h.memory.setUnavailable({ reason: 'no Secret Service', fix: 'Unlock gnome-keyring.' });
    h.advance(5);
    expect((await h.auth.pollDeviceAuth()).result).toEqual({
      success: false,
      error: 'keychain_unavailable',
      message: 'The OS keychain is unavailable (no Secret Service). Unlock gnome-keyring.',
    });
    expect(await h.store.read(getAccountRow)).toBeUndefined();
    expect(h.events).toEqual([]);
    h.memory.setUnavailable(null);
    expect((await h.auth.status()).signedIn).toBe(false);
  });
});
