// GitHub sign-in through the app window against a LOCAL FAKE of GitHub's device flow (not
// GitHub): the code shows large with its countdown, copying it works, approval on the
// "GitHub" side ends signed in with the avatar and name in the sidebar. The token goes to
// the real OS keychain, so this runs where `npm test` provides a private unlocked
// gnome-keyring (LETAGENTS_TEST_KEYRING=1); in CI it must run, elsewhere it may skip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeGitHub, type FakeGitHub } from '../support/fakeGitHub';
import { openApp, type AppSession } from './lib/app';
import { saveShot } from './lib/shots';

const keychainReady = process.env.LETAGENTS_TEST_KEYRING === '1';
const inCi = !!process.env.CI && process.env.CI !== 'false';
const AVATAR = 'https://avatars.githubusercontent.com/u/583231?v=4';
// A 1×1 PNG: the avatar request is answered locally, never by the network.
const PIXEL = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

let github: FakeGitHub;
let app: AppSession;

describe.skipIf(!keychainReady && !inCi)('GitHub sign-in (fake GitHub, real keychain)', () => {
  beforeAll(async () => {
    github = await startFakeGitHub();
    github.user = { id: 583231, login: 'ada', name: 'Ada Lovelace', avatar_url: AVATAR };
    github.nextDeviceCode = { interval: 1 };
    app = await openApp({ env: github.env() });
    await app.browser.context.route('https://avatars.githubusercontent.com/**', (route) => route.fulfill({ status: 200, contentType: 'image/png', body: PIXEL }));
    await app.browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: new URL(app.serve.uiUrl).origin });
  }, 60_000);

  afterAll(async () => {
    await app?.close();
    await github?.close();
  });

  it('shows the code, waits for approval, and ends signed in with avatar and name in the sidebar', async () => {
    const { page } = app;
    const nav = page.getByRole('navigation', { name: 'LetAgents' });
    await nav.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'GitHub sign-in' }).waitFor();
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();

    const code = page.getByLabel(/^Your code is /);
    await code.waitFor();
    const userCode = (await code.textContent())!.trim();
    expect(userCode).toMatch(/^[0-9A-F]{4}-[0-9A-F]{4}$/);
    expect(github.requestsTo('/login/device/code')).toHaveLength(1);
    await page.getByRole('status').filter({ hasText: 'Waiting for approval…' }).waitFor();
    const countdown = page.getByRole('progressbar', { name: 'Time left for this code' });
    expect(Number(await countdown.getAttribute('aria-valuenow'))).toBeGreaterThan(880);
    expect(await countdown.getAttribute('aria-valuemax')).toBe('900');
    await page.getByRole('button', { name: 'Open GitHub' }).waitFor(); // not clicked: it would open the host's browser
    await page.getByRole('button', { name: 'Copy code' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(userCode);
    await saveShot(page, 'sign-in-code');

    github.approve();
    await nav.getByRole('button', { name: /Ada Lovelace/ }).getByText('@ada').waitFor();
    const avatar = nav.locator('img.avatar');
    expect(await avatar.getAttribute('src')).toBe(AVATAR);
    await expect.poll(() => avatar.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(1);
    await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    await page.getByText('Signed in to GitHub as @ada.', { exact: false }).waitFor();
    expect(github.requestsTo('/api/user').length).toBeGreaterThan(0);
    await saveShot(page, 'sign-in-done');
    expect(app.problems).toEqual([]);

    // Leave the shared test keychain as it was.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await nav.getByRole('button', { name: 'Sign in' }).waitFor();
  });
});

describe.skipIf(!keychainReady && !inCi)('sign-in before it can start (real keychain)', () => {
  let local: AppSession;
  afterAll(async () => {
    await local?.close();
  });

  it('without an OAuth App: three steps to make one (Device Flow, the unused callback URL), and where its client id goes', async () => {
    local = await openApp({ env: { LETAGENTS_GITHUB_CLIENT_ID: '' } });
    const { page } = local;
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Create a GitHub OAuth App first' }).waitFor();
    const steps = await page.locator('.steps li').allInnerTexts();
    expect(steps).toHaveLength(3);
    expect(steps[0]).toContain('Settings → Developer settings → OAuth Apps → New OAuth App');
    expect(await page.getByRole('link', { name: /New OAuth App/ }).getAttribute('href')).toBe('https://github.com/settings/applications/new');
    expect(steps[1]).toContain('tick Enable Device Flow');
    expect(steps[1]).toContain('enter http://127.0.0.1; LetAgents never uses it');
    expect(steps[2]).toContain('paste it below');
    await saveShot(page, 'sign-in-no-oauth-app');
    await page.getByRole('textbox', { name: 'GitHub client id' }).fill('Ov23liTestClient01');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('button', { name: 'Sign in with GitHub' }).waitFor();
    expect(local.problems).toEqual([]);
    await local.close();
  });

  it('offline: says GitHub is not reachable for want of a network, not a resolver code', async () => {
    // A name that never resolves (.invalid) stands for github.com on a machine without a network.
    local = await openApp({ env: { LETAGENTS_GITHUB_CLIENT_ID: 'Ov23liTestClient01', LETAGENTS_GITHUB_WEB_URL: 'https://github.invalid', LETAGENTS_GITHUB_API_URL: 'https://api.github.invalid' } });
    const { page } = local;
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Sign in with GitHub' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'GitHub is not reachable (no network).' });
    await alert.waitFor();
    expect(await alert.textContent()).not.toMatch(/ENOTFOUND|EAI_AGAIN|getaddrinfo/);
    await saveShot(page, 'sign-in-offline');
    expect(local.problems).toEqual([]);
  });
});

describe('sign-in without a keychain', () => {
  it('says why and its fix once', async () => {
    // No D-Bus session bus: the Secret Service cannot be reached (as on a desktop without a keyring).
    const local = await openApp({ env: { DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/letagents-test-bus' } });
    try {
      const { page } = local;
      await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Sign in' }).click();
      const notice = page.getByRole('alert').filter({ has: page.getByRole('heading', { name: 'Sign-in needs your system keychain' }) });
      await notice.waitFor();
      const text = await notice.innerText();
      // The fix for this system, from the core, once; no second, general one beside it.
      expect(text.split('Install and unlock gnome-keyring or KWallet').length - 1, text).toBe(1);
      expect(text).not.toMatch(/On Linux, install and unlock|such as GNOME Keyring/);
      expect(text).toContain('Everything else in LetAgents works without signing in.');
      await saveShot(page, 'sign-in-no-keychain');
      expect(local.problems).toEqual([]);
    } finally {
      await local.close();
    }
  });
});
