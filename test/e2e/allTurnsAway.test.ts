// A person's @all answered in turn (issue 34 item 2) when an agent goes away and another runs out
// of time, as the person sees it in Chromium, with three real helper clients (MCP SDK over
// `letagents-desktop mcp`) as the room's agents. The first agent is handed the @all and its helper
// closes: after the reconnect grace the receipts say it went away, and the second agent's 90 s
// count from then. The second never reads it: its turn runs out (`serve` has no knob for the turn's
// length, so this waits the product's 90 s). Keyboard only; axe in light and dark on the receipts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURN_WAIT_MS } from '../../src/main/domain/activation/broadcastTurns';
import { RECONNECT_GRACE_MS } from '../../src/main/mcp/bindings';
import { agentPool, currentCursor, type Agent } from './lib/agents';
import { openApp, type AppSession } from './lib/app';
import { expectNoViolationsInBothSchemes } from './lib/axe';
import { openChat } from './lib/chat';
import { pressUntilFocused } from './lib/keyboard';
import { saveShot } from './lib/shots';

const ROOM = 'turns-away';
const QUESTION = '@all who can look at the flaky login test?';
let app: AppSession;
const agents = agentPool(() => app.serve.dataDir);

beforeAll(async () => {
  app = await openApp();
}, 60_000);

afterAll(async () => {
  await agents.closeAll();
  await app?.close();
});

/** "1:27" → 87 */
const seconds = (left: string) => Number(left.split(':')[0]) * 60 + Number(left.split(':')[1]);

describe('@all in turn: an agent that went away, a turn that ran out', () => {
  it('says who went away and whose time ran out, and counts each turn from when it really started', async () => {
    const { page } = app;
    for (const name of ['Aspen', 'Birch', 'Cedar']) await agents.join(ROOM, name);
    const byName = new Map<string, Agent>(['Aspen', 'Birch', 'Cedar'].map((name, i) => [name, agents.joined[i]]));
    const cursors = new Map<string, string | null>();
    for (const [name, agent] of byName) cursors.set(name, await currentCursor(agent));
    await openChat(page, ROOM);

    const composer = page.getByRole('combobox', { name: `Message ${ROOM}` });
    await composer.focus();
    await page.keyboard.type(QUESTION);
    await page.keyboard.press('Enter');
    const message = page.getByRole('region', { name: 'Messages' }).getByRole('article').filter({ hasText: QUESTION });
    const receipts = message.locator('.receipts-summary');
    await receipts.filter({ hasText: /^\w+'s turn, \d:\d\d left · next: \w+, \w+$/ }).waitFor({ timeout: 20_000 });
    const [, first, second, third] = /^(\w+)'s turn, \d:\d\d left · next: (\w+), (\w+)$/.exec((await receipts.textContent())!)!;

    // The first agent is handed the @all, then its helper closes and nothing reconnects it.
    const got = await byName.get(first)!.call('wait_for_messages', { after_message_id: cursors.get(first), timeout: 20_000 });
    expect(got.messages.map((m: { text: string }) => m.text)).toContain(QUESTION);
    await byName.get(first)!.close();
    const wentAway = new RegExp(`^${first} went away · ${second}'s turn, (\\d:\\d\\d) left · next: ${third}$`);
    await receipts.filter({ hasText: wentAway }).waitFor({ timeout: RECONNECT_GRACE_MS + 20_000 });
    // The second agent's turn started when the first went away (after the grace), not when the first's began.
    const left = seconds(wentAway.exec((await receipts.textContent())!)![1]);
    expect(left).toBeGreaterThan(TURN_WAIT_MS / 1000 - RECONNECT_GRACE_MS / 1000);

    // Opened by keyboard (back from the composer), the receipts say when each turn ended.
    await pressUntilFocused(page, 'Shift+Tab', receipts);
    await page.keyboard.press('Enter');
    const details = message.getByRole('tooltip');
    await details.getByText(new RegExp(`^1\\. ${first}: went away at [\\d:]+`)).waitFor();
    await details.getByText(new RegExp(`^2\\. ${second}: its turn since [\\d:]+, until [\\d:]+ at the latest$`)).waitFor();
    await expectNoViolationsInBothSchemes(page, 'the receipts of an @all whose first agent went away');
    await saveShot(page, 'all-in-turn-went-away');

    // The second agent never reads it: its 90 s run out, and the first still reads "went away" (live, still open).
    await receipts
      .filter({ hasText: new RegExp(`^${first} went away · ${second} ran out of time · ${third}'s turn, \\d:\\d\\d left$`) })
      .waitFor({ timeout: TURN_WAIT_MS + 20_000 });
    await details.getByText(new RegExp(`^2\\. ${second}: ran out of time at [\\d:]+`)).waitFor();
    await details.getByText(new RegExp(`^1\\. ${first}: went away at [\\d:]+`)).waitFor();
    await expectNoViolationsInBothSchemes(page, 'the receipts of an @all whose second agent ran out of time');
    await saveShot(page, 'all-in-turn-ran-out');
    expect(app.problems).toEqual([]);
  }, TURN_WAIT_MS + 120_000);
});
