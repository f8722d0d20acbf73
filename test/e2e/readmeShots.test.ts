// The README's screenshots, taken from the real app (issue 35): Connect agents with its prompt
// box, a room where an agent answered a mention and "Seen by" shows, and a managed agent's
// Changes. A real `serve` whose Claude Code is the real CLI talking to a fake model server (the
// only fake), with a PATH and HOME of its own, so the screens look the same on every machine.
// lib/docShots.ts decides when docs/images is rewritten (and fails in CI when it is stale).
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support';
import { say, writeInWorktree } from '../support/fakeModels';
import { CLI_BIN } from '../main/agents/managedApp';
import { joinAgent, type Agent } from './lib/agents';
import { openChat, postAsPerson } from './lib/chat';
import { saveDocShot } from './lib/docShots';
import { addClaudeAgent, managedCard, openManagedApp, type ManagedServe } from './lib/managed';

const ROOM = 'checkout-service';
let served: ManagedServe;
let juniper: Agent | undefined;

/** A PATH with only what the shots need: Claude Code (so its card reads Installed), git and node. */
function steadyPath(): string {
  const bin = join(tempDir('la-e2e-shots-bin-'), 'bin');
  mkdirSync(bin);
  for (const [name, target] of [['claude', join(CLI_BIN, 'claude')], ['git', '/usr/bin/git'], ['sh', '/bin/sh'], ['node', process.execPath]]) symlinkSync(target, join(bin, name));
  return bin;
}

beforeAll(async () => {
  served = await openManagedApp('shots', ROOM, { repo: true, path: steadyPath(), width: 1280, height: 960 });
}, 60_000);

afterAll(async () => {
  await juniper?.close();
  await served?.close();
});

const nav = () => served.app.page.getByRole('navigation', { name: 'LetAgents' });

describe('the README screenshots', () => {
  it('Connect agents, with Claude Code set up and the prompt to paste', async () => {
    const { page } = served.app;
    await nav().getByRole('button', { name: 'Connect agents' }).click();
    await page.getByRole('button', { name: 'Connect Claude Code', exact: true }).click();
    const claude = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Claude Code', exact: true }) });
    await claude.getByText('Set up', { exact: true }).waitFor();
    await page.getByRole('heading', { name: 'Then tell your agent' }).waitFor();
    // Its toast gone, and tall enough for the cards and the prompt box together.
    await page.locator('.toasts .toast').first().waitFor({ state: 'detached' });
    await page.setViewportSize({ width: 1280, height: 1280 });
    try {
      await saveDocShot(page, 'connect-agents', page.getByRole('main'));
    } finally {
      await page.setViewportSize({ width: 1280, height: 960 });
    }
    expect(served.app.problems).toEqual([]);
  });

  it('a room where an agent answered a mention, with "Seen by" under the question', async () => {
    const { page, serve } = served.app;
    juniper = await joinAgent(serve.dataDir, { room: ROOM, name: 'Juniper' });
    await openChat(page, ROOM);
    const question = await postAsPerson(page, ROOM, '@Juniper can you look at the failing checkout test?');
    const read = await juniper.call('read_messages', { limit: 5 });
    const asked = (read.messages as Array<{ id: string; text: string }>).find((m) => m.text.includes('failing checkout test'))!;
    await juniper.call('send_message', { text: 'On it: `CartTotals` expects prices in cents, the fixture has euros. Fixing the fixture now.', reply_to: asked.id });
    await page.getByRole('region', { name: 'Messages' }).getByText('expects prices in cents', { exact: false }).waitFor();
    await question.getByRole('button', { name: 'Seen by Juniper' }).waitFor();
    await saveDocShot(page, 'room-answer-seen-by', page.getByRole('region', { name: 'Messages' }));
    expect(served.app.problems).toEqual([]);
  });

  it("a managed agent's Changes: the diff on its own branch, with Merge into main", async () => {
    const { app, model, folder } = served;
    const { page } = app;
    await addClaudeAgent(page, { name: 'Ada', room: ROOM, folder, permission: /Edit files in the folder/, instructions: 'You keep the release notes.' });
    const card = managedCard(page, 'Ada');
    model.script.push('Ada', writeInWorktree('RELEASE_NOTES.md', '# Release notes\n\n- Checkout: prices in the cart fixture are in cents.\n'), say('Wrote the release notes.'));
    await card.getByRole('button', { name: 'Run now' }).click();
    await card.getByRole('button', { name: 'Changes' }).click();
    const changes = card.getByRole('region', { name: 'Changes of Ada' });
    await changes.getByRole('heading', { name: 'RELEASE_NOTES.md' }).waitFor({ timeout: 60_000 });
    await card.getByText('Idle', { exact: true }).waitFor({ timeout: 60_000 });
    await changes.getByRole('button', { name: 'Merge into main' }).waitFor();
    await saveDocShot(page, 'managed-agent-changes', card);
    expect(app.problems).toEqual([]);
  }, 120_000);
});
