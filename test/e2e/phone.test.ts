// Away from the desk (issue 37), end to end in Chromium: a real `serve` whose managed agent is
// the real Claude Code on "Ask me" (the model server is the only fake), phone access on
// 127.0.0.2 (the stand-in for the LAN), and a second Chromium with a Pixel 7's viewport and
// touch that trusts the app's certificate by its public-key hash. The person pairs the phone
// from the link the desktop shows, posts in the room from the phone, taps Allow (a shell
// command asks once more), and Claude Code runs the command: the item reads "the agent went
// on" on the phone and on the desktop. A local fake ntfy server gets the approval, without the
// command, with a link that opens the item on the phone. axe checks the phone-sized views, and
// Chromium finds the page installable (Add to Home screen).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callBuiltInTool, replyInRoom } from '../support/fakeModels';
import { runCli } from '../support';
import { startFakeNtfy, type FakeNtfy } from '../support/fakeNtfy';
import { axeViolations } from './lib/axe';
import { addClaudeAgent, openManagedApp, type ManagedServe } from './lib/managed';
import { openPhone, type Phone } from './lib/phone';
import { saveShot } from './lib/shots';

const ROOM = 'release-work';
let served: ManagedServe;
let ntfy: FakeNtfy;
let phone: Phone | null = null;

beforeAll(async () => {
  served = await openManagedApp('phone', ROOM);
  ntfy = await startFakeNtfy();
}, 60_000);

afterAll(async () => {
  await phone?.close();
  await served?.close();
  await ntfy?.close();
});

describe('a paired phone answers an agent', () => {
  it('pairs by the link, and Allow on the phone reaches Claude Code, which runs the command; every screen reads "the agent went on"', async () => {
    const { app, model, folder } = served;
    const desk = app.page;
    const deskNav = desk.getByRole('navigation', { name: 'LetAgents' });
    await addClaudeAgent(desk, { name: 'Asker', room: ROOM, folder, permission: /^Ask me/ });

    // Phone access on, on the stand-in for the LAN, from the command line; notifications to the person's ntfy topic.
    const on = await runCli(['phone', 'on', '--address', '127.0.0.2', '--port', '0', '--data-dir', app.serve.dataDir]);
    expect(on.stderr).toBe('');
    await deskNav.getByRole('button', { name: 'Settings' }).click();
    const notify = desk.getByRole('region', { name: 'Notifications to your phone' });
    await notify.getByRole('textbox', { name: /Topic URL/ }).fill(`${ntfy.origin}/ada-secret-topic`);
    await notify.getByRole('button', { name: 'Save', exact: true }).click();
    await notify.getByText(`${ntfy.origin}/…`).waitFor();

    // The desktop shows the pairing link, its code and the certificate's fingerprint.
    const phoneSection = desk.getByRole('region', { name: 'Phone' });
    await phoneSection.getByRole('button', { name: 'Pair a phone' }).click();
    const pairing = phoneSection.getByRole('group', { name: 'Pair a phone' });
    const link = (await pairing.locator('.pairing-link').textContent())!;
    const fingerprint = (await pairing.locator('.fingerprint').textContent())!;
    expect(link).toMatch(/^https:\/\/127\.0\.0\.2:\d+\/#pair=[A-Z2-9]{8}$/);
    await pairing.getByRole('img', { name: /^QR code of the pairing link/ }).waitFor();
    await saveShot(desk, 'phone-pairing-desktop');

    // The phone opens the link (what scanning the QR code does): the pairing page, with the same fingerprint.
    phone = await openPhone(app.serve.dataDir);
    const { page } = phone;
    await page.goto(link);
    await page.getByRole('heading', { name: 'Pair this phone with LetAgents' }).waitFor();
    expect(await page.locator('.fingerprint').textContent()).toBe(fingerprint);
    expect(await page.getByRole('textbox', { name: 'Pairing code' }).inputValue()).toBe(link.split('#pair=')[1]);
    expect(await page.getByRole('textbox', { name: 'Name of this phone' }).inputValue()).toBe('Android phone');
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('textbox', { name: 'Name of this phone' }).fill('Pixel 7');
    await page.getByRole('button', { name: 'Pair this phone' }).tap();
    const phoneNav = page.getByRole('navigation', { name: 'LetAgents' });
    await page.getByRole('heading', { name: 'Needs you', level: 1 }).waitFor();
    // The desktop lists the phone, with its page open now.
    await phoneSection.getByRole('list', { name: 'Paired phones' }).getByText('Pixel 7').waitFor();
    await phoneSection.getByText('Open now').waitFor();

    // From the phone, the person asks the agent in the room's chat.
    const notes = join(folder, 'release-notes.md');
    model.script.push('Asker', callBuiltInTool('Bash', { command: `touch ${notes}`, description: 'Create the release notes' }), ...replyInRoom('Created the release notes file.'));
    await phoneNav.getByRole('button', { name: 'Rooms' }).tap();
    await page.getByRole('button', { name: ROOM }).tap();
    const box = page.getByRole('combobox', { name: `Message ${ROOM}` });
    await box.fill('@Asker please create the release notes file.');
    await page.getByRole('button', { name: 'Send' }).tap();
    expect(await axeViolations(page)).toEqual([]);

    // Needs you, first in the tab bar, counts the request; Allow on a shell command asks once more.
    await phoneNav.getByRole('button', { name: /Needs you/ }).getByLabel('1 waiting').waitFor({ timeout: 30_000 });
    await phoneNav.getByRole('button', { name: /Needs you/ }).tap();
    const item = page.getByRole('article', { name: 'Wants to use a tool from Asker: Asker asks to use Bash' });
    await item.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await saveShot(page, 'phone-needs-you');
    await item.getByRole('button', { name: 'Allow once', exact: true }).tap();
    const confirm = item.getByRole('group', { name: 'Confirm: Allow once' });
    expect(await confirm.textContent()).toContain(`touch ${notes}`);
    expect(existsSync(notes)).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Yes, allow once' }).tap();

    // Claude Code ran it: the phone's item says the agent went on, and so does the desktop's.
    await item.getByRole('status').filter({ hasText: 'the agent went on' }).waitFor({ timeout: 30_000 });
    expect(existsSync(notes)).toBe(true);
    expect(await item.getByRole('status').textContent()).toMatch(/^Allowed once by .+ from Pixel 7\. Delivered; the agent went on\.$/);
    await phoneNav.getByRole('button', { name: /Needs you/ }).getByLabel('1 waiting').waitFor({ state: 'detached' });
    await saveShot(page, 'phone-went-on');
    await deskNav.getByRole('button', { name: /Needs you/ }).click();
    const deskItem = desk.getByRole('article', { name: 'Wants to use a tool from Asker: Asker asks to use Bash' });
    await deskItem.getByRole('status').filter({ hasText: 'from Pixel 7. Delivered; the agent went on.' }).waitFor();
    expect(await deskItem.getByRole('button', { name: 'Allow once', exact: true }).count()).toBe(0);

    // The ntfy topic got the approval: who and where, no command, and a link to the item on the phone.
    const approval = ntfy.received.find((r) => r.body.tags && (r.body.tags as string[]).includes('approval'));
    expect(approval?.body).toMatchObject({ topic: 'ada-secret-topic', title: `Approval needed: Asker in ${ROOM}`, click: expect.stringMatching(/^https:\/\/127\.0\.0\.2:\d+\/#item=approval:local:release-work:\d+$/) });
    expect(JSON.stringify(approval?.body)).not.toContain('touch');
    // Tapping it opens the item on the phone (already paired: no pairing page).
    await page.goto(approval!.body.click as string);
    await page.getByRole('heading', { name: 'Needs you', level: 1 }).waitFor();
    await page.locator('[data-item^="approval:local:release-work:"] article').waitFor();

    // The other phone views at phone size: rooms, the room's chat, the agents.
    await phoneNav.getByRole('button', { name: 'Agents' }).tap();
    await page.getByRole('article', { name: 'Asker' }).getByRole('button', { name: 'Pause' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await phoneNav.getByRole('button', { name: 'Rooms' }).tap();
    await page.getByRole('button', { name: ROOM }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: ROOM }).tap();
    await page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: 'Created the release notes file.' }).waitFor({ timeout: 30_000 });
    expect(await axeViolations(page)).toEqual([]);
    await saveShot(page, 'phone-room');
    expect(phone.problems, phone.problems.join("\n")).toEqual([]);
    expect(app.problems).toEqual([]);
  }, 240_000);

  it("shows the phone's own notifications while the page is open, once the person asks for them", async () => {
    const { page, browser } = phone!;
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: /^Needs you/ }).tap();
    const button = page.getByRole('button', { name: 'Notify me on this phone' });
    await button.waitFor();
    // The person allows it when the phone asks (the browser's prompt, answered here for them).
    await browser.context.grantPermissions(['notifications'], { origin: new URL(page.url()).origin });
    await button.tap();
    await page.getByRole('status').filter({ hasText: 'On: this phone shows a notification when something needs you.' }).waitFor();
    // Shown through the page's service worker, as a phone's browser needs (and a tap opens the item).
    const shown = await page.evaluate(async () => (await (await navigator.serviceWorker.ready).getNotifications()).map((n) => n.title));
    expect(shown).toEqual(['LetAgents']);
  }, 60_000);

  it('can be added to the home screen: Chromium finds the paired page installable, with its manifest and icons', async () => {
    const { page } = phone!;
    // Chromium's own check (the one behind "Install app" / "Add to Home screen"): a secure
    // context, a manifest with a name, start URL, standalone display and icons it could fetch.
    const cdp = await page.context().newCDPSession(page);
    try {
      const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: Array<{ errorId: string }> };
      expect(installabilityErrors.map((e) => e.errorId)).toEqual([]);
      const { url, errors } = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[] };
      expect([new URL(url).pathname, errors]).toEqual(['/manifest.webmanifest', []]);
    } finally {
      await cdp.detach();
    }
    // The icons it names are served as the PNGs of the sizes it says.
    const sizes = await page.evaluate(async () => {
      const manifest = (await (await fetch('/manifest.webmanifest')).json()) as { icons: Array<{ src: string; sizes: string }> };
      return Promise.all(manifest.icons.map(async (icon) => {
        const bitmap = await createImageBitmap(await (await fetch(icon.src)).blob());
        return [icon.sizes, `${bitmap.width}x${bitmap.height}`];
      }));
    });
    expect(sizes.length).toBeGreaterThan(0);
    for (const [said, real] of sizes) expect(real).toBe(said);
  }, 60_000);

  it('fits a 360 px phone: no sideways scrolling, targets a thumb can hit, Pause and Resume from the phone', async () => {
    await phone!.page.setViewportSize({ width: 360, height: 740 });
    const { page } = phone!;
    const phoneNav = page.getByRole('navigation', { name: 'LetAgents' });
    await phoneNav.getByRole('button', { name: 'Agents' }).tap();
    const card = page.getByRole('article', { name: 'Asker' });
    await card.getByRole('button', { name: 'Pause' }).tap();
    await card.getByText('Paused', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Resume' }).tap();
    await card.getByRole('button', { name: 'Pause' }).waitFor();
    for (const view of ['Needs you', 'Rooms', 'Agents']) {
      await phoneNav.getByRole('button', { name: new RegExp(`^${view}`) }).tap();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), view).toBeLessThanOrEqual(360);
      const small = await page.evaluate(() =>
        [...document.querySelectorAll('button')].filter((b) => b.offsetParent !== null).map((b) => ({ name: b.textContent?.trim() || b.getAttribute('aria-label'), h: b.getBoundingClientRect().height })).filter((b) => b.h < 44),
      );
      expect(small, view).toEqual([]);
      expect(await axeViolations(page), view).toEqual([]);
    }
    expect(phone!.problems, phone!.problems.join("\n")).toEqual([]);
  }, 60_000);
});
