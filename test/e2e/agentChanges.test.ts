// A managed agent's changes in Chromium against a real `serve`: the real Claude Code CLI
// (fake model server, the only fake) edits a real git repository in its own worktree; the
// person opens its Changes (the diff rendered), merges it into main, and a merge that would
// conflict is refused naming the file, with main untouched. A task the agent claims shows its
// branch and opens its Changes from the task drawer.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, identityIn, say, writeInWorktree } from '../support/fakeModels';
import { roomButton } from './lib/app';
import { column, card as taskCard } from './lib/board';
import { addClaudeAgent, managedCard, openManagedApp, type ManagedServe } from './lib/managed';
import { saveShot } from './lib/shots';

const ROOM = 'changes-room';
let served: ManagedServe;

beforeAll(async () => {
  served = await openManagedApp('changes', ROOM, { repo: true });
}, 60_000);

afterAll(async () => {
  await served?.close();
});

describe("a managed agent's changes in the app", () => {
  it('shows the diff of its branch, merges it into main, and refuses a conflicting merge naming the file', async () => {
    const { app, model, folder, git } = served;
    const { page } = app;
    await addClaudeAgent(page, { name: 'Ada', room: ROOM, folder, permission: /Edit files in the folder/ });
    const card = managedCard(page, 'Ada');
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
    // goes from 'Taking a turn' back to 'Idle'.
    await card.getByText('Idle', { exact: true }).waitFor({ timeout: 60_000 });
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
    await card.getByText('Idle', { exact: true }).waitFor({ timeout: 60_000 });
    await changes.getByRole('button', { name: 'Merge into main' }).click();
    await changes.getByRole('alert').filter({ hasText: 'shared.txt' }).waitFor();
    await changes.getByRole('alert').filter({ hasText: 'does not merge cleanly into main' }).waitFor();
    expect(git('rev-parse', 'main')).toBe(mainTip);
    expect(git('status', '--porcelain')).toBe('');
    expect(readFileSync(join(folder, 'shared.txt'), 'utf8')).toBe('the person\'s line\n');
    await saveShot(page, 'managed-agent-merge-refused');
    expect(app.problems).toEqual([]);
  }, 180_000);

  it('opens the Changes of the managed agent that holds a task from the task drawer, where its branch is a link', async () => {
    const { app, model, folder, cedar } = served;
    const { page } = app;
    const taskId = (await cedar.call('add_task', { title: 'Write the changelog' })).task.id as string;
    await addClaudeAgent(page, { name: 'Bo', room: ROOM, folder, permission: /Edit files in the folder/ });
    const card = managedCard(page, 'Bo');
    await card.getByText('letagents/bo', { exact: true }).waitFor();
    model.script.push(
      'Bo',
      callTool('register_agent_session', (r) => identityIn(r)),
      callTool('update_task', (r) => ({ worker_id: identityIn(r).worker_id, task_id: taskId, status: 'accepted' })),
      callTool('claim_task', (r) => ({ worker_id: identityIn(r).worker_id, task_id: taskId })),
      writeInWorktree('CHANGELOG.md', '# Changelog\nBo wrote this\n'),
      say('Claimed and wrote it.'),
    );
    await card.getByRole('button', { name: 'Run now' }).click();
    // Its turn starts, then ends (right after the click the card may still read Idle from before).
    await card.getByText('Taking a turn', { exact: true }).waitFor({ timeout: 30_000 });
    await card.getByText('Idle', { exact: true }).waitFor({ timeout: 60_000 });

    await roomButton(page, ROOM).click();
    await page.getByRole('tab', { name: 'Board' }).click();
    await taskCard(column(page, 'Assigned'), taskId).getByRole('button', { name: 'Write the changelog' }).click();
    const drawer = page.getByRole('complementary', { name: new RegExp(`^${taskId}:`) });
    // The agent's claim put its branch among the task's links.
    await drawer.getByRole('list').getByText('letagents/bo', { exact: true }).waitFor();
    await drawer.getByRole('button', { name: 'Changes', exact: true }).click();
    const changes = drawer.getByRole('region', { name: 'Changes of Bo' });
    await changes.getByRole('heading', { name: 'CHANGELOG.md' }).waitFor();
    await changes.getByText('Bo wrote this').waitFor();
    await changes.getByRole('button', { name: 'Merge into main' }).waitFor();
    await saveShot(page, 'task-holder-changes');
    expect(app.problems).toEqual([]);
  }, 120_000);
});
