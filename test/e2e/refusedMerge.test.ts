// A refused merge has next steps, in Chromium against a real `serve` whose Claude Code is the
// real CLI talking to a fake model server (the only fake), on a real git repository (issue 35
// item 8): the diff says "since it branched from main"; Merge is the main action and Discard
// the quieter one, both off while there is nothing; a conflicting merge offers "Update from
// main" (refused, naming the file) and "Ask Ada to redo it on top of main", whose request in
// the room starts Ada's turn; its resolution then merges.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { say, writeInWorktree } from '../support/fakeModels';
import { openChat } from './lib/chat';
import { addClaudeAgent, managedCard, openManagedApp, type ManagedServe } from './lib/managed';
import { saveShot } from './lib/shots';

const ROOM = 'refused-merge';
let served: ManagedServe;

beforeAll(async () => {
  served = await openManagedApp('refused', ROOM, { repo: true });
}, 60_000);

afterAll(async () => {
  await served?.close();
});

describe('after a refused merge', () => {
  it('offers Update from main and Ask Ada to redo it; Ada redoes it on top of main and it merges', async () => {
    const { app, model, folder, git } = served;
    const { page } = app;
    await addClaudeAgent(page, { name: 'Ada', room: ROOM, folder, permission: /Edit files in the folder/ });
    const card = managedCard(page, 'Ada');
    await card.getByRole('button', { name: 'Changes' }).click();
    const changes = card.getByRole('region', { name: 'Changes of Ada' });
    await changes.getByText('No changes').waitFor();
    expect(await changes.locator('.changes-head p').textContent()).toContain('on letagents/ada since it branched from main');
    // Nothing on its branch: nothing to merge, nor to throw away.
    expect(await changes.getByRole('button', { name: 'Merge into main' }).isDisabled()).toBe(true);
    expect(await changes.getByRole('button', { name: 'Discard…' }).isDisabled()).toBe(true);

    model.script.push('Ada', writeInWorktree('shared.txt', "Ada's line\n"), say('Changed it.'));
    await card.getByRole('button', { name: 'Run now' }).click();
    await card.getByText('Taking a turn', { exact: true }).waitFor({ timeout: 30_000 });
    await card.getByText('Idle', { exact: true }).waitFor({ timeout: 60_000 });
    await changes.getByRole('heading', { name: 'shared.txt' }).waitFor();
    // Merge is the main action; Discard is quieter (it was the loud one).
    const look = (name: string) => changes.getByRole('button', { name }).evaluate((b) => getComputedStyle(b).backgroundColor);
    expect(await look('Discard…')).toBe('rgba(0, 0, 0, 0)');
    expect(await look('Merge into main')).not.toBe('rgba(0, 0, 0, 0)');

    writeFileSync(join(folder, 'shared.txt'), "the person's line\n");
    git('commit', '-q', '-am', 'person');
    await changes.getByRole('button', { name: 'Merge into main' }).click();
    await changes.getByRole('alert').filter({ hasText: 'does not merge cleanly into main' }).waitFor();
    const next = changes.getByRole('group', { name: 'After the refused merge' });
    await next.getByText('main has moved on since letagents/ada left it, and both changed shared.txt.', { exact: false }).waitFor();
    await saveShot(page, 'refused-merge-next-steps');

    const tip = git('rev-parse', 'letagents/ada');
    await next.getByRole('button', { name: 'Update from main' }).click();
    await next.getByRole('alert').filter({ hasText: 'Not updated: main does not merge cleanly into letagents/ada: shared.txt changed on both. Nothing was changed.' }).waitFor();
    expect(git('rev-parse', 'letagents/ada')).toBe(tip);

    model.script.push('Ada', writeInWorktree('shared.txt', "the person's line\nAda's line\n"), say('Redone on top of main.'));
    await next.getByRole('button', { name: 'Ask Ada to redo it on top of main' }).click();
    await next.getByRole('status').filter({ hasText: 'Asked Ada in its room to redo it on top of main' }).waitFor();
    // The request in the room mentions Ada, which starts its turn.
    await card.getByText('Taking a turn', { exact: true }).waitFor({ timeout: 30_000 });
    await card.getByText('Idle', { exact: true }).waitFor({ timeout: 60_000 });
    await changes.getByRole('button', { name: 'Merge into main' }).click();
    await changes.getByRole('status').filter({ hasText: 'Merged letagents/ada into main.' }).waitFor();
    expect(readFileSync(join(folder, 'shared.txt'), 'utf8')).toBe("the person's line\nAda's line\n");

    await openChat(page, ROOM);
    const messages = page.getByRole('region', { name: 'Messages' });
    await messages.getByText('@Ada main has moved on since your branch letagents/ada left it', { exact: false }).waitFor();
    await messages.getByText("merged Ada's branch letagents/ada into main", { exact: false }).waitFor();
    expect(app.problems).toEqual([]);
  }, 240_000);
});
