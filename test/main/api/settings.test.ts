import { describe, expect, it } from 'vitest';
import { FAKE_CLIENT_ID } from '../../support/fakeGitHub';
import { eventsOf, setUpApi } from './harness';

describe('settings.get', () => {
  it('starts from the defaults, with the client id from the environment', async () => {
    const h = await setUpApi();
    expect(await h.call('settings.get', {})).toEqual({
      theme: 'system',
      notifications: true,
      githubClientId: FAKE_CLIENT_ID,
      githubClientIdSource: 'environment',
      dataDir: h.dataDir,
      delivery: { unansweredAfterSeconds: 120, loopGuardMessages: 30, loopGuardMinutes: 10 },
      approvalTimeoutMinutes: 10,
    });
    const bare = await setUpApi({ env: { LETAGENTS_GITHUB_CLIENT_ID: '' } });
    expect(await bare.call('settings.get', {})).toMatchObject({ githubClientId: null, githubClientIdSource: 'none' });
  });
});

describe('settings.set', () => {
  it('keeps theme and notifications, and sets the GitHub client id sign-in uses', async () => {
    const h = await setUpApi({ env: { LETAGENTS_GITHUB_CLIENT_ID: '' } });
    const changed = await h.call('settings.set', { theme: 'dark', notifications: false, githubClientId: ' Iv1.mine ' });
    expect(changed).toMatchObject({ theme: 'dark', notifications: false, githubClientId: 'Iv1.mine', githubClientIdSource: 'settings' });
    expect(await h.call('settings.get', {})).toEqual(changed);
    expect((await h.call('auth.status', {})).clientConfigured).toBe(true);
    expect(eventsOf(h.events, 'auth.changed')).toHaveLength(1);

    const cleared = await h.call('settings.set', { githubClientId: null });
    expect(cleared).toMatchObject({ theme: 'dark', githubClientId: null, githubClientIdSource: 'none' });
    expect((await h.call('auth.status', {})).clientConfigured).toBe(false);
    expect(await h.call('settings.set', { theme: 'light', notifications: true })).toMatchObject({ theme: 'light', notifications: true });
  });

  it('refuses an unknown theme, a malformed client id and unknown settings, changing nothing', async () => {
    const h = await setUpApi();
    const before = h.snapshot();
    expect(await h.fail('settings.set', { theme: 'neon' })).toMatchObject({ code: 'invalid_input' });
    expect(await h.fail('settings.set', { githubClientId: 'not an id!' })).toEqual({
      code: 'invalid_input',
      message: 'githubClientId: A GitHub client id has only letters, digits, dots, dashes and underscores.',
    });
    expect(await h.fail('settings.set', { dataDir: '/tmp' })).toMatchObject({ code: 'invalid_input' });
    // Delivery limits out of bounds are refused and change nothing.
    for (const delivery of [{ unansweredAfterSeconds: 0 }, { loopGuardMessages: 1 }, { loopGuardMinutes: 2_000 }, { unansweredAfterSeconds: 1.5 }, { other: 1 }]) {
      expect(await h.fail('settings.set', { delivery })).toMatchObject({ code: 'invalid_input' });
    }
    expect((await h.call('settings.get', {})).delivery).toEqual({ unansweredAfterSeconds: 120, loopGuardMessages: 30, loopGuardMinutes: 10 });
    // How long an approval waits: whole minutes, 1 to 1,440.
    for (const approvalTimeoutMinutes of [0, 1.5, 1_441]) expect(await h.fail('settings.set', { approvalTimeoutMinutes })).toMatchObject({ code: 'invalid_input' });
    expect(h.snapshot()).toBe(before);
  });

  it('keeps how long an approval waits before it counts as denied', async () => {
    const h = await setUpApi();
    expect((await h.call('settings.set', { approvalTimeoutMinutes: 3 })).approvalTimeoutMinutes).toBe(3);
    expect((await h.call('settings.get', {})).approvalTimeoutMinutes).toBe(3);
  });
});
