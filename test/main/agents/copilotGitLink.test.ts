// A managed GitHub Copilot CLI agent points its worktree's `.git` at the person's repository
// (issue 32, item 4): the REAL Copilot CLI (its own `edit` tool, allowed under "edit") against a
// scripted fake model (the only fake). Before the fix, Merge then committed the agent's tree
// straight onto the person's `main` and unstaged their staged work; now the turn's stat still
// reads the agent's own branch and Merge, Discard and Remove refuse, naming why, with the
// person's repository untouched (branch, staging, files).
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupSpawned } from '../../support';
import { callBuiltInTool, say } from '../../support/fakeModels';
import { git, initRepo } from './gitFixtures';
import { startManagedApp, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'copilot-git-room';

function personState(repo: string) {
  return {
    branch: git(repo, 'symbolic-ref', '--short', 'HEAD'),
    main: git(repo, 'rev-parse', 'main'),
    staged: git(repo, 'diff', '--cached'),
    status: git(repo, 'status', '--porcelain', '--untracked-files=all'),
    files: ['shared.txt', 'README.md', 'staged.txt', 'draft.txt'].map((f) => readFileSync(join(repo, f), 'utf8')),
  };
}

describe('a managed Copilot agent that points its .git at the person\'s repository (real Copilot CLI, fake model)', () => {
  it('gets Merge, Discard and Remove refused with the reason, and the person\'s branch, staging and files stay as they were', { timeout: 180_000 }, async () => {
    app = await startManagedApp({ provider: 'copilot' });
    await app.room(ROOM);
    initRepo(app.folder);
    // The person's work in progress: one file staged, one edited and not staged.
    writeFileSync(join(app.folder, 'staged.txt'), 'staged by the person\n');
    git(app.folder, 'add', 'staged.txt');
    writeFileSync(join(app.folder, 'draft.txt'), 'a draft, not staged\n');
    const before = personState(app.folder);

    const agent = await app.call('agents.add', { provider: 'copilot', folder: app.folder, roomId: ROOM, name: 'Cop', permissions: 'edit' });
    expect(agent.workspace).toMatchObject({ kind: 'worktree', branch: 'letagents/cop', base: 'main' });
    const tree = agent.workspace.path;
    const link = join(tree, '.git');
    const made = readFileSync(link, 'utf8').trim();
    app.model.script.push(
      'Cop',
      callBuiltInTool('create', { path: join(tree, 'notes.md'), file_text: '# Notes by Cop\n' }),
      callBuiltInTool('edit', { path: link, old_str: made, new_str: `gitdir: ${join(app.folder, '.git')}` }),
      say('Done.'),
    );
    await app.call('agents.runNow', { agentId: agent.agentId });
    const turn = await app.turnEnded(agent.agentId, 1);
    expect(turn.status, JSON.stringify(turn)).toBe('done');
    // The CLI did write it: nothing stops Copilot from changing its own `.git`.
    expect(readFileSync(link, 'utf8').trim()).toBe(`gitdir: ${join(app.folder, '.git')}`);
    // The turn's stat still reads the agent's own branch, not the person's checkout.
    expect(turn.entries.map((e) => e.text)).toContain('Changes on letagents/cop against main: 1 file (+1 −0), 1 uncommitted: notes.md.');
    const changes = await app.call('agents.changes', { agentId: agent.agentId, diff: true });
    expect(changes.files).toEqual([{ path: 'notes.md', added: 1, removed: 0, binary: false }]);

    const merge = await app.call('agents.merge', { agentId: agent.agentId });
    expect(merge).toMatchObject({ merged: false, commit: null });
    expect(merge.reason).toContain(`${link} points at ${join(app.folder, '.git')}, not at the git folder LetAgents made for this worktree`);
    expect(await app.fail('agents.discard', { agentId: agent.agentId })).toContain(`${link} points at ${join(app.folder, '.git')}`);
    expect(await app.fail('agents.remove', { agentId: agent.agentId, discardWork: true })).toContain(`${link} points at ${join(app.folder, '.git')}`);

    expect(personState(app.folder)).toEqual(before);
    expect(git(app.folder, 'diff', '--cached', '--name-only')).toBe('staged.txt');
    expect(git(app.folder, 'log', '--format=%s', 'main')).toBe('start');
    // The agent's work is still on its own branch, in its worktree.
    expect(readFileSync(join(tree, 'notes.md'), 'utf8')).toBe('# Notes by Cop\n');
  });
});
