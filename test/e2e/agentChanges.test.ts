// A managed agent's changes in Chromium against a real `serve`: the real Claude Code CLI
// (fake model server, the only fake) edits a real git repository in its own worktree; the
// person opens its Changes (the diff rendered), merges it into main, and a merge that would
// conflict is refused naming the file, with main untouched.
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../support';
import { say, startFakeModel, writeInWorktree, type FakeModel } from '../support/fakeModels';
import { CLI_BIN } from '../main/agents/managedApp';
import { joinAgent } from './lib/agents';
import { openApp, type AppSession } from './lib/app';
import { saveShot } from './lib/shots';

const ROOM = 'changes-room';
let app: AppSession;
let model: FakeModel;
let folder: string;
const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Person', '-c', 'user.email=p@example.com', ...args], { cwd: folder, encoding: 'utf8' }).trim();

beforeAll(async () => {
  const home = tempDir('la-e2e-changes-home-');
  model = await startFakeModel('claude_code', home);
  folder = join(tempDir('la-e2e-changes-'), 'checkout-service');
  mkdirSync(folder);
  git('init', '-q', '-b', 'main');
  writeFileSync(join(folder, 'shared.txt'), 'first line\n');
  git('add', '-A');
  git('commit', '-q', '-m', 'start');
  app = await openApp({ env: { ...model.env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` } });
  const cedar = await joinAgent(app.serve.dataDir, { room: ROOM, name: 'Cedar' });
  await cedar.close();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await model?.close();
});

describe("a managed agent's changes in the app", () => {
  it('shows the diff of its branch, merges it into main, and refuses a conflicting merge naming the file', async () => {
    const { page } = app;
    await page.getByRole('navigation', { name: 'LetAgents' }).getByRole('button', { name: 'Agents', exact: true }).click();
    await page.getByRole('button', { name: 'Add agent' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add agent' });
    await dialog.getByRole('radio', { name: 'Claude Code', exact: true }).check();
    await dialog.getByRole('textbox', { name: 'Name in the room' }).fill('Ada');
    await dialog.getByRole('combobox', { name: 'Room' }).selectOption(ROOM);
    await dialog.getByRole('textbox', { name: 'Folder it works in' }).fill(folder);
    await dialog.getByRole('radio', { name: /Edit files in the folder/ }).check();
    await dialog.getByRole('button', { name: 'Add agent' }).click();
    await dialog.waitFor({ state: 'detached' });
    const card = page.getByRole('list', { name: 'Managed agents' }).locator('> li').filter({ hasText: 'Ada' });
    await card.getByText('letagents/ada', { exact: true }).waitFor();

    model.script.push('Ada', writeInWorktree('notes.md', '# Release notes\nAda was here\n'), say('Wrote the notes.'));
    await card.getByRole('button', { name: 'Run now' }).click();
    await card.getByRole('button', { name: 'Changes' }).click();
    const changes = card.getByRole('region', { name: 'Changes of Ada' });
    // The view follows the agent's turns: the file appears when the turn has written it.
    await changes.getByRole('heading', { name: 'notes.md' }).waitFor({ timeout: 60_000 });
    await changes.getByText('1 file changed').waitFor();
    await changes.getByText('Ada was here').waitFor();
    await saveShot(page, 'managed-agent-changes');

    // Merging waits for the turn to end (a merge during a turn is refused): the card's state
    // goes from 'Taking a turn' back to 'Managed'.
    await card.getByText('Managed', { exact: true }).waitFor({ timeout: 60_000 });
    await changes.getByRole('button', { name: 'Merge into main' }).click();
    await changes.getByRole('status').filter({ hasText: 'Merged letagents/ada into main.' }).waitFor();
    expect(readFileSync(join(folder, 'notes.md'), 'utf8')).toBe('# Release notes\nAda was here\n');

    // The agent and the person change the same line: the merge is refused, main stays.
    model.script.push('Ada', writeInWorktree('shared.txt', 'Ada\'s line\n'), say('Changed it.'));
    await card.getByRole('button', { name: 'Run now' }).click();
    await changes.getByRole('heading', { name: 'shared.txt' }).waitFor({ timeout: 60_000 });
    writeFileSync(join(folder, 'shared.txt'), 'the person\'s line\n');
    git('commit', '-q', '-am', 'person');
    const mainTip = git('rev-parse', 'main');
    await card.getByText('Managed', { exact: true }).waitFor({ timeout: 60_000 });
    await changes.getByRole('button', { name: 'Merge into main' }).click();
    await changes.getByRole('alert').filter({ hasText: 'shared.txt' }).waitFor();
    await changes.getByRole('alert').filter({ hasText: 'does not merge cleanly into main' }).waitFor();
    expect(git('rev-parse', 'main')).toBe(mainTip);
    expect(git('status', '--porcelain')).toBe('');
    expect(readFileSync(join(folder, 'shared.txt'), 'utf8')).toBe('the person\'s line\n');
    await saveShot(page, 'managed-agent-merge-refused');
    expect(app.problems).toEqual([]);
  });
});
