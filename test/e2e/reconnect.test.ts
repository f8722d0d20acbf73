// Starting and reconnecting (issue 16): serve takes the port it had last time for the data
// folder, so a tab left open finds the app at the same address after a restart. Its session
// ended with the old run (the UI secret is new every start): the banner says so and what to
// do, and once `letagents-desktop open` has given this browser a new session (cookies are
// per host, so it serves the old tab too) the old tab reconnects by itself, live again.
// On a box whose `open` can only print the link, pasting it into the same tab reconnects it
// (issue 35). When nothing answers at the address any more, the banner says that instead.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinAgent, type Agent } from './lib/agents';
import { openApp, roomButton, type AppSession } from './lib/app';
import { saveShot } from './lib/shots';

const ROOM = 'night-shift';
let app: AppSession;
let agent: Agent | undefined;

beforeAll(async () => {
  app = await openApp({ port: 'last' });
  agent = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Juniper' });
  await agent.call('send_message', { text: 'Before the restart.' });
  await roomButton(app.page, ROOM).click();
  await app.page.getByRole('region', { name: 'Messages' }).getByText('Before the restart.').waitFor();
}, 60_000);

afterAll(async () => {
  await agent?.close().catch(() => undefined);
  await app?.close();
});

const banner = () => app.page.locator('.connection-banner');

describe('after serve restarts', () => {
  it('comes back on the same port; the old tab says its session ended and reconnects once the app is opened again', async () => {
    const { page } = app;
    const before = app.serve.port;
    const juniperChip = page.locator('.presence .agent-chip').filter({ hasText: 'Juniper' });
    await juniperChip.getByText(/Working|Listening|Idle/).waitFor();
    await agent!.close();
    agent = undefined;
    await app.restartServe();
    expect(app.serve.port).toBe(before);

    await banner().getByText('LetAgents restarted', { exact: false }).waitFor({ timeout: 20_000 });
    expect(await banner().textContent()).toContain('Open it again from the terminal with letagents-desktop open (or npm start); this tab reconnects by itself');
    expect(await banner().textContent()).toContain('Without a browser there, letagents-desktop open --print prints a link: paste it into this tab.');
    // While the app is away nobody knows who listens: the chip does not keep saying so (issue 35).
    await juniperChip.getByText('Not known now').waitFor();
    await saveShot(page, 'reconnect-session-ended');

    // The person runs `letagents-desktop open`: a new tab trades a fresh one-time link for a session.
    const other = await app.browser.context.newPage();
    await other.goto(await app.serve.newUiUrl());
    await other.getByRole('navigation', { name: 'LetAgents' }).waitFor();
    await other.close();

    // Back on the old tab (focus retries at once): the banner goes and the tab is live again.
    await page.bringToFront();
    await page.evaluate(() => window.dispatchEvent(new Event('focus')));
    await banner().waitFor({ state: 'detached', timeout: 15_000 });
    agent = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Juniper' });
    await agent.call('send_message', { text: 'After the restart, live in the old tab.' });
    await page.getByRole('region', { name: 'Messages' }).getByText('After the restart, live in the old tab.').waitFor();
    await saveShot(page, 'reconnect-live-again');
    expect(app.problems.filter((p) => !p.includes('WebSocket') && !p.includes('Failed to load resource'))).toEqual([]);
  });

  it('reconnects when the new link is pasted into the same tab, as on a box whose `open` can only print it (issue 35)', async () => {
    const { page } = app;
    await agent!.close();
    agent = undefined;
    await app.restartServe();
    await banner().getByText('LetAgents restarted', { exact: false }).waitFor({ timeout: 20_000 });
    // Pasted into the address bar: only the #code differs, so the page does not load again.
    const link = await app.serve.newUiUrl();
    await page.evaluate((url) => {
      window.location.href = url;
    }, link);
    await banner().waitFor({ state: 'detached', timeout: 15_000 });
    expect(new URL(page.url()).hash).toBe('');
    agent = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Juniper' });
    await agent.call('send_message', { text: 'Live again after pasting the link.' });
    await page.getByRole('region', { name: 'Messages' }).getByText('Live again after pasting the link.').waitFor();
    // The link was traded once, by this tab: a second use is refused.
    expect((await fetch(`http://127.0.0.1:${app.serve.port}/api/session`, { method: 'POST', headers: { 'Content-Type': 'application/json', Origin: `http://127.0.0.1:${app.serve.port}` }, body: JSON.stringify({ code: new URLSearchParams(new URL(link).hash.slice(1)).get('code') }) })).status).toBe(401);
  });

  it('says when nothing answers at the address any more (stopped, or moved to another port)', async () => {
    await app.serve.stop();
    await banner().getByText('LetAgents is not answering at this address', { exact: false }).waitFor({ timeout: 20_000 });
    expect(await banner().textContent()).toContain(`(127.0.0.1:${app.serve.port})`);
    expect(await banner().textContent()).toContain('letagents-desktop open (or npm start) opens it there');
    await saveShot(app.page, 'reconnect-unreachable');
  });
});
