// Settings → Teams end to end: real Chromium against a real `serve`, a real throwaway
// PostgreSQL cluster and the real OS keychain (the private gnome-keyring of `npm test`).
// A person adds a team by keyboard and sees it connected; the database goes down and the
// team shows "Offline, reconnecting"; it comes back and the team is connected again with
// nothing restarted. A team added with the CLI while the window is open shows at once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { runCli } from '../support';
import { startPostgres, type PgCluster } from '../support/postgres';
import { keychainUrl, runTeamSuites, settingsText, uniqueTeamName } from '../support/teams';
import { openApp, type AppSession } from './lib/app';
import { saveShot } from './lib/shots';

const SECRET = 'Sup3r-s3cret';
let cluster: PgCluster;
let app: AppSession;

const teamItem = (page: Page, name: string) => page.getByRole('list', { name: 'Teams' }).getByRole('listitem', { name });

describe.skipIf(!runTeamSuites)('teams in the app window', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
    app = await openApp();
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    cluster?.stop();
  });

  it('adds a team by keyboard, shows it connected, offline while the database is down, and connected again', async () => {
    const { page } = app;
    const name = uniqueTeamName('acme');
    const url = (await cluster.createDatabase()).replace('postgres://postgres@', `postgres://postgres:${SECRET}@`);
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByText('No teams yet: every room is on this computer.').waitFor();

    await page.getByRole('button', { name: 'Add a team' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Add a team' });
    await page.keyboard.type(name);
    await page.keyboard.press('Tab');
    await page.keyboard.type(url);
    await page.keyboard.press('Enter');
    await dialog.waitFor({ state: 'detached', timeout: 15_000 });

    const item = teamItem(page, name);
    await item.getByText('Connected', { exact: true }).waitFor();
    await item.getByText(url.replace(SECRET, '***'), { exact: true }).waitFor();
    expect(await page.content()).not.toContain(SECRET);
    expect(await keychainUrl(name)).toBe(url);
    expect(settingsText(app.serve.dataDir)).not.toContain(SECRET);
    await saveShot(page, 'teams-connected');

    cluster.kill();
    try {
      await item.getByText('Offline, reconnecting').waitFor({ timeout: 10_000 });
      await saveShot(page, 'teams-offline');
    } finally {
      cluster.start();
    }
    await item.getByText('Connected', { exact: true }).waitFor({ timeout: 15_000 });

    await item.getByRole('button', { name: 'Test connection' }).click();
    await item.getByRole('status').getByText(/^Reachable \(PostgreSQL \d+/).waitFor();
    expect(app.problems).toEqual([]);
  });

  it('shows a team the CLI adds while the window is open, without reloading', async () => {
    const { page } = app;
    const name = uniqueTeamName('cli');
    const added = await runCli(['team', 'add', name, '--url-stdin', '--data-dir', app.serve.dataDir], { input: `${await cluster.createDatabase()}\n`, timeoutMs: 30_000 });
    expect(added.code, added.stderr).toBe(0);
    await teamItem(page, name).getByText('Connected', { exact: true }).waitFor({ timeout: 10_000 });

    const removed = await runCli(['team', 'remove', name, '--data-dir', app.serve.dataDir]);
    expect(removed.code, removed.stderr).toBe(0);
    await teamItem(page, name).waitFor({ state: 'detached' });
    expect(app.problems).toEqual([]);
  });
});
