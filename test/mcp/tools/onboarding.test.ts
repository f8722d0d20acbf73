// Onboarding tools, in-process (serve does not wire GitHub sign-in yet): the MCP hub with
// the auth service over an in-memory keychain, against the fake GitHub (mcp-tools.md §8).
// Every outcome is soft; the clock is moved past poll intervals instead of waiting.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { cleanupSpawned } from '../../support';
import { DEFAULT_FAKE_USER, FAKE_CLIENT_ID, startFakeGitHub, type FakeGitHub } from '../../support/fakeGitHub';
import { APP_VERSION } from '../../../src/main/version';
import { SIGN_OUT_IS_THE_PERSONS } from '../../../src/main/auth/authResults';
import { connectAgent, expectSoft, makeRepo, startApp, type Agent } from './harness';
import { startInProcessApp, type InProcessApp } from './inProcess';

const STATUS_KEYS = [
  'account', 'agent_identity', 'auth_hint', 'auth_source', 'authenticated', 'configured_room_from_file', 'current_room', 'derived_repo_room_from_git',
  'detected_room_from_context', 'git_current_branch', 'git_default_branch', 'github_client_configured', 'keychain_available', 'next_step',
  'pending_device_auth', 'repo_root', 'saved_current_room', 'token_expires_at',
];
const O2 = 'No pending device authorization. Run start_device_auth first.';

let github: FakeGitHub;
let app: InProcessApp;
let ada: Agent;

beforeEach(async () => {
  github = await startFakeGitHub();
  app = await startInProcessApp({ githubEnv: github.env() });
  ada = await app.connect({ cwd: makeRepo('git@github.com:Acme/Widget.git') });
});

afterEach(async () => {
  await app.close();
  await github.close();
  await cleanupSpawned();
});

async function started(args: Record<string, unknown> = {}) {
  const result = await ada.call('start_device_auth', args);
  expect(result.success, JSON.stringify(result)).toBe(true);
  return result;
}

/** Polls once the interval has passed, so the app asks GitHub. */
async function pollNow(interval: number, args: Record<string, unknown> = {}) {
  app.advance(interval);
  return ada.call('poll_device_auth', args);
}

describe('get_onboarding_status (in-process)', () => {
  it('reports sign-in, rooms and the repository, with join_room as the next step', async () => {
    const status = await ada.call('get_onboarding_status');
    expect(Object.keys(status).sort()).toEqual(STATUS_KEYS);
    expect(status).toMatchObject({
      authenticated: false, auth_source: 'none', account: null, token_expires_at: null, pending_device_auth: null, keychain_available: true,
      github_client_configured: true, current_room: null, saved_current_room: null, derived_repo_room_from_git: 'github.com/acme/widget',
      detected_room_from_context: 'github.com/acme/widget', configured_room_from_file: null, git_current_branch: 'main', git_default_branch: 'main', next_step: 'join_room',
    });
    expect(status.agent_identity).toMatchObject({ agent_session_id: null, owner_label: 'ospat' });
    await ada.call('join_room', { name: 'onboarding-room' });
    expect(await ada.call('get_onboarding_status')).toMatchObject({ current_room: 'onboarding-room', saved_current_room: 'onboarding-room', next_step: null });
  });

  it('points at resume_room_session when this client\'s saved room is another one', async () => {
    const cwd = makeRepo(null);
    const first = await app.connect({ cwd, clientName: 'cursor' });
    const second = await app.connect({ cwd, clientName: 'cursor' });
    await first.call('join_room', { name: 'room-a' });
    await second.call('join_room', { name: 'room-b' });
    expect(await first.call('get_onboarding_status')).toMatchObject({ current_room: 'room-a', saved_current_room: 'room-b', next_step: 'resume_room_session' });
  });
});

describe('GitHub device flow (in-process)', () => {
  it('starts, reuses, polls pending and slow_down, then signs in and auto-joins', async () => {
    await ada.call('join_room', { name: 'signed-in-room' });
    await ada.call('join_room', { name: 'another-room' });
    const start = await started({ room_id: 'signed-in-room' });
    expect(Object.keys(start).sort()).toEqual(['expires_at', 'expires_in', 'interval', 'message', 'request_id', 'success', 'suggested_room_id', 'user_code', 'verification_uri']);
    expect(start).toMatchObject({ request_id: expect.stringMatching(/^device_[0-9a-f]{32}$/), interval: 5, expires_in: 900, suggested_room_id: 'signed-in-room', verification_uri: `${github.webUrl}/login/device` });
    expect(start.message).toBe(`Open ${start.verification_uri} and enter code ${start.user_code}, then run poll_device_auth.`);
    expect(JSON.stringify(start)).not.toContain('device_code');
    const [codeRequest] = github.requestsTo('/login/device/code');
    expect(codeRequest).toMatchObject({ method: 'POST', form: { client_id: FAKE_CLIENT_ID, scope: 'read:user' } });
    expect(codeRequest.headers.accept).toBe('application/json');

    expect(await ada.call('start_device_auth')).toMatchObject({ request_id: start.request_id, reused_existing_request: true });
    expect((await ada.call('get_onboarding_status')).pending_device_auth).toEqual({ request_id: start.request_id, user_code: start.user_code, verification_uri: start.verification_uri, expires_at: start.expires_at });
    expect((await ada.call('get_onboarding_status')).next_step).toBe('poll_device_auth');

    // Before the interval has passed GitHub is not asked.
    expect(await ada.call('poll_device_auth')).toMatchObject({ success: true, status: 'pending', interval: 5 });
    expect(github.requestsTo('/login/oauth/access_token')).toHaveLength(0);
    expect(await pollNow(5)).toEqual({ success: true, status: 'pending', interval: 5, expires_in: expect.any(Number) });
    const [tokenRequest] = github.requestsTo('/login/oauth/access_token');
    expect(tokenRequest.form).toEqual({ client_id: FAKE_CLIENT_ID, device_code: expect.any(String), grant_type: 'urn:ietf:params:oauth:grant-type:device_code' });
    github.slowDownOnce();
    expect(await pollNow(5)).toMatchObject({ success: true, status: 'slow_down', interval: 10 });

    github.approve();
    const done = await pollNow(10, { request_id: start.request_id, auto_join: true });
    expect(Object.keys(done).sort()).toEqual(['account', 'agent_identity', 'auto_joined_room', 'expires_at', 'hint', 'status', 'success']);
    expect(done).toMatchObject({
      success: true, status: 'authorized', expires_at: null, auto_joined_room: 'signed-in-room',
      account: { id: DEFAULT_FAKE_USER.id, login: 'ada', display_name: 'Ada Lovelace', avatar_url: DEFAULT_FAKE_USER.avatar_url },
      agent_identity: { owner_label: 'Ada Lovelace' },
    });
    const [userRequest] = github.requestsTo('/api/user');
    expect(userRequest.headers).toMatchObject({ authorization: `Bearer ${github.issuedTokens[0]}`, accept: 'application/vnd.github+json', 'user-agent': `LetAgents-Desktop/${APP_VERSION}` });
    expect([...app.secrets.entries.values()]).toEqual([github.issuedTokens[0]]);
    expect(await ada.call('get_current_room')).toMatchObject({ room_id: 'signed-in-room', auth: { source: 'keychain', expires_at: null, account: { login: 'ada' } } });
    expect(await ada.call('get_onboarding_status')).toMatchObject({ authenticated: true, auth_source: 'keychain', account: { login: 'ada' }, pending_device_auth: null });

    // An agent cannot sign the person out (issue 15 item 7): the token stays in the keychain.
    const kept = { success: true, signed_out: false, env_token_still_present: false, pending_sign_in_cleared: false, hint: SIGN_OUT_IS_THE_PERSONS };
    expect(await ada.call('clear_saved_auth')).toEqual(kept);
    expect([...app.secrets.entries.values()]).toEqual([github.issuedTokens[0]]);
    expect(await ada.call('get_onboarding_status')).toMatchObject({ authenticated: true, account: { login: 'ada' } });
  });

  it('clear_saved_auth forgets only a pending sign-in request', async () => {
    await started();
    expect(await ada.call('clear_saved_auth')).toEqual({ success: true, signed_out: false, env_token_still_present: false, pending_sign_in_cleared: true, hint: SIGN_OUT_IS_THE_PERSONS });
    expect((await ada.call('get_onboarding_status')).pending_device_auth).toBeNull();
    expect((await ada.call('clear_saved_auth')).pending_sign_in_cleared).toBe(false);
  });

  it('starts a new request with force', async () => {
    const first = await started();
    const second = await started({ force: true });
    expect(second.request_id).not.toBe(first.request_id);
    expect(second).not.toHaveProperty('reused_existing_request');
  });

  it('answers denied and then O2, keeping nothing pending', async () => {
    const start = await started();
    github.deny();
    expect(await pollNow(start.interval)).toEqual({ success: false, status: 'denied', error: 'The sign-in request was denied on GitHub.' });
    expectSoft(await ada.call('poll_device_auth'), O2);
    expect((await ada.call('get_onboarding_status')).pending_device_auth).toBeNull();
  });

  it('answers expired from GitHub, and from the local expiry without asking GitHub', async () => {
    const start = await started();
    github.expire();
    expect(await pollNow(start.interval)).toEqual({ success: false, status: 'expired', error: 'The code expired. Run start_device_auth again.' });
    await started();
    const asked = github.requestsTo('/login/oauth/access_token').length;
    expect(await pollNow(901)).toEqual({ success: false, status: 'expired', error: 'The code expired. Run start_device_auth again.' });
    expect(github.requestsTo('/login/oauth/access_token')).toHaveLength(asked);
  });

  it('reports other GitHub answers as O4 with status error, and an unknown request as O2', async () => {
    const start = await started();
    github.answerPollOnce(500, { message: 'boom' });
    const failed = await pollNow(start.interval);
    expect(failed).toMatchObject({ success: false, status: 'error', error: expect.stringMatching(/^GitHub could not be reached: /) });
    expectSoft(await ada.call('poll_device_auth', { request_id: 'device_00000000000000000000000000000000' }), O2);
  });

  it('refuses a verification page off the GitHub origin (O4) and a locked keychain (O3)', async () => {
    github.nextDeviceCode = { verification_uri: 'https://evil.example/login/device' };
    expect(await ada.call('start_device_auth')).toMatchObject({ success: false, error: expect.stringMatching(/^GitHub could not be reached: .*evil\.example/) });
    app.secrets.setUnavailable({ reason: 'locked', fix: 'unlock it' });
    expect(await ada.call('start_device_auth')).toMatchObject({ success: false, error: 'keychain_unavailable', message: expect.any(String) });
  });

  it('answers O3 when the keychain cannot store the new token, and stays signed out', async () => {
    const start = await started();
    github.approve();
    app.secrets.setUnavailable({ reason: 'locked', fix: 'unlock it' });
    expect(await pollNow(start.interval)).toMatchObject({ success: false, error: 'keychain_unavailable', message: expect.any(String) });
    app.secrets.setUnavailable(null);
    expect(await ada.call('get_onboarding_status')).toMatchObject({ authenticated: false, account: null });
    expect(app.secrets.entries.size).toBe(0);
  });

  it('answers O4 when GitHub cannot be reached at all', async () => {
    await github.close();
    expect(await ada.call('start_device_auth')).toMatchObject({ success: false, error: expect.stringMatching(/^GitHub could not be reached: /) });
  });
});

describe('without a GitHub client id (in-process)', () => {
  it('answers O1 with a hint, and the status says the client is not configured', async () => {
    const bare = await startInProcessApp({ githubEnv: { LETAGENTS_GITHUB_WEB_URL: github.webUrl, LETAGENTS_GITHUB_API_URL: github.apiUrl } });
    const agent = await bare.connect();
    expectSoft(await agent.call('start_device_auth'), 'GitHub sign-in is not configured: set a GitHub OAuth client id.', { hint: expect.any(String) });
    expect(await agent.call('get_onboarding_status')).toMatchObject({ github_client_configured: false, authenticated: false });
    expectSoft(await agent.call('poll_device_auth'), O2);
    await bare.close();
  });
});

describe('through serve and a real helper, with no GitHub client id', () => {
  // Only calls that never write the OS keychain: serve uses the real one.
  it('reports the status, answers O1 to start and O2 to poll', async () => {
    const serve = await startApp({ env: { LETAGENTS_GITHUB_CLIENT_ID: '' } });
    const agent = await connectAgent(serve);
    const status = await agent.call('get_onboarding_status');
    expect(Object.keys(status).sort()).toEqual(STATUS_KEYS);
    expect(status).toMatchObject({ authenticated: false, auth_source: 'none', github_client_configured: false, pending_device_auth: null, next_step: 'join_room' });
    expect(status.auth_hint).toContain('GitHub sign-in is not configured');
    expectSoft(await agent.call('start_device_auth'), 'GitHub sign-in is not configured: set a GitHub OAuth client id.', { hint: expect.any(String) });
    expectSoft(await agent.call('poll_device_auth', { auto_join: true }), O2);
    await agent.client.close();
    await serve.stop();
  });
});
