import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { getAccountRow } from '../../../src/main/store/accountQueries';
import { createGitHubData } from '../../../src/main/auth/githubData';
import { createKeychainSecretStore } from '../../../src/main/secrets/keychainSecretStore';
import { APP_VERSION, setUp, signIn } from './harness';

const realKeychain = process.env.LETAGENTS_TEST_KEYRING === '1';

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

describe('being signed in', () => {
  it('shows the person who they are signed in as, and never the token', async () => {
    const h = await setUp();
    const token = await signIn(h);
    const status = await h.auth.status();
    expect(status).toEqual({
      signedIn: true,
      account: { id: 583231, login: 'ada', display_name: 'Ada Lovelace', avatar_url: 'https://avatars.example/ada.png' },
      signedInAs: 'Ada Lovelace (@ada)',
      tokenExpiresAt: null,
      keychain: { available: true },
      clientConfigured: true,
      clientHelp: null,
      pending: null,
    });
    expect(JSON.stringify(status)).not.toContain(token);
    expect(await h.auth.authSummary()).toEqual({ source: 'keychain', expires_at: null, account: status.account });
  });

  it('reports the auth part of the onboarding status', async () => {
    const h = await setUp();
    expect(await h.auth.onboardingStatus()).toEqual({
      authenticated: false,
      auth_source: 'none',
      auth_hint: 'Not signed in. Sign-in is optional and only sets the owner shown in agent labels; run start_device_auth to sign in with GitHub.',
      account: null,
      token_expires_at: null,
      pending_device_auth: null,
      keychain_available: true,
      github_client_configured: true,
    });
    const started = (await h.auth.startDeviceAuth()) as { request_id: string; user_code: string; verification_uri: string };
    expect(await h.auth.onboardingStatus()).toMatchObject({
      auth_hint: `Open ${started.verification_uri} and enter code ${started.user_code}, then run poll_device_auth.`,
      pending_device_auth: { request_id: started.request_id, user_code: started.user_code, verification_uri: started.verification_uri, expires_at: '2026-05-01T09:15:00.000Z' },
    });
    h.github.approve();
    h.advance(5);
    await h.auth.pollDeviceAuth();
    expect(await h.auth.onboardingStatus()).toMatchObject({
      authenticated: true,
      auth_source: 'keychain',
      auth_hint: 'Signed in to GitHub as ada; the token is in the OS keychain.',
      account: { login: 'ada' },
      pending_device_auth: null,
    });
  });

  it('with the keychain unavailable explains why and how to fix it', async () => {
    const h = await setUp();
    h.memory.setUnavailable({ reason: 'no Secret Service', fix: 'Install and unlock gnome-keyring or KWallet.' });
    expect(await h.auth.onboardingStatus()).toMatchObject({
      authenticated: false,
      keychain_available: false,
      auth_hint: 'The OS keychain is unavailable (no Secret Service). Install and unlock gnome-keyring or KWallet. Sign-in is optional; everything else works.',
    });
  });

  it('ends when the token disappears from the keychain', async () => {
    const h = await setUp();
    await signIn(h);
    await h.memory.delete('github-token');
    expect(await h.auth.onboardingStatus()).toMatchObject({ authenticated: false, account: null });
    expect(await h.store.read(getAccountRow)).toBeUndefined();
  });
});

describe('signing out', () => {
  it('deletes the token, the pending request and the cached account', async () => {
    const h = await setUp();
    await signIn(h);
    await h.auth.startDeviceAuth();
    h.events.length = 0;
    expect(await h.auth.signOut()).toEqual({ success: true, signed_out: true, env_token_still_present: false });
    expect(h.memory.entries.size).toBe(0);
    expect(await h.store.read(getAccountRow)).toBeUndefined();
    expect((await h.auth.onboardingStatus()).pending_device_auth).toBeNull();
    expect(h.events).toEqual(['auth.changed']);
    expect(await h.auth.ownerIdentity()).toEqual({ ownerLabel: 'ospat', ownerSlug: 'ospat', githubLogin: null });
    expect(await h.auth.authSummary()).toBeNull();
  });

  it('when not signed in reports nothing was signed out', async () => {
    const h = await setUp();
    expect(await h.auth.signOut()).toEqual({ success: true, signed_out: false, env_token_still_present: false });
  });
});

describe('GitHub rejecting the token (401) afterwards', () => {
  it('signs the person out when a GitHub data call gets 401', async () => {
    const h = await setUp();
    await signIn(h);
    h.github.addRepo('ada/engine', { visibility: 'public' });
    h.github.revokeTokens();
    h.events.length = 0;
    const data = createGitHubData({ auth: h.auth, version: APP_VERSION, env: h.github.env() });
    // Retried without the token after the 401, so public data still arrives.
    expect(await data.repoVisibility('github.com/ada/engine')).toMatchObject({ visibility: 'public', reason: null });
    expect(h.memory.entries.size).toBe(0);
    expect(await h.store.read(getAccountRow)).toBeUndefined();
    expect(h.events).toEqual(['auth.changed']);
    expect((await h.auth.status()).signedIn).toBe(false);
  });

  it('signs the person out when refreshing the account gets 401', async () => {
    const h = await setUp();
    await signIn(h);
    expect(await h.auth.refreshAccount()).toBe('refreshed');
    h.github.revokeTokens();
    expect(await h.auth.refreshAccount()).toBe('signed_out');
    expect((await h.auth.onboardingStatus()).authenticated).toBe(false);
  });

  it('keeps the sign-in when GitHub is merely unreachable', async () => {
    const h = await setUp();
    await signIn(h);
    await h.github.close();
    expect(await h.auth.refreshAccount()).toBe('unreachable');
    expect((await h.auth.onboardingStatus()).authenticated).toBe(true);
  });
});

describe('the owner shown in agent labels', () => {
  it('is the GitHub name with the login as slug when signed in', async () => {
    const h = await setUp();
    h.github.user = { id: 1, login: 'AdaL', name: 'Ada Lovelace', avatar_url: 'https://avatars.example/1.png' };
    await signIn(h);
    expect(await h.auth.ownerIdentity()).toEqual({ ownerLabel: 'Ada Lovelace', ownerSlug: 'adal', githubLogin: 'AdaL' });
  });

  it('is the login when the GitHub account has no name', async () => {
    const h = await setUp();
    h.github.user = { id: 2, login: 'grace', name: null, avatar_url: 'https://avatars.example/2.png' };
    await signIn(h);
    expect(await h.auth.ownerIdentity()).toEqual({ ownerLabel: 'grace', ownerSlug: 'grace', githubLogin: 'grace' });
  });

  it('is the OS user name when not signed in', async () => {
    const h = await setUp({ osUser: 'Jürgen Weiß' });
    expect(await h.auth.ownerIdentity()).toEqual({ ownerLabel: 'Jürgen Weiß', ownerSlug: 'jurgen-wei', githubLogin: null });
  });
});

describe('the token on disk', () => {
  it('is nowhere in the data directory after sign-in', async () => {
    const secrets = realKeychain ? createKeychainSecretStore({ service: `LetAgents Desktop test ${process.pid}` }) : undefined;
    const h = await setUp({ dataDir: true, secrets });
    const token = await signIn(h);
    expect(await h.secrets.get('github-token')).toBe(token);
    const files = filesUnder(h.dataDir as string);
    expect(files.some((f) => f.endsWith('letagents.db'))).toBe(true);
    for (const file of files) {
      const bytes = readFileSync(file);
      expect(bytes.includes(Buffer.from(token, 'utf8')), file).toBe(false);
      expect(bytes.includes(Buffer.from(token, 'utf16le')), file).toBe(false);
    }
    await h.auth.signOut();
  });
});
