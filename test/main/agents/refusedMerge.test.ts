// After a refused merge (issue 35 item 8): "Update from main" merges the base into the agent's
// branch when that is clean, and refuses (naming the files, changing nothing) when it is not;
// "Ask <agent> to redo it on top of main" leaves the conflicts in its worktree and asks it in its
// room, whose mention starts its turn; its resolution then merges. Merges are the person's
// (their git identity), not "LetAgents". Real git, the real Claude Code, a fake model (the only fake).
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupSpawned } from '../../support';
import { say, writeInWorktree } from '../../support/fakeModels';
import { git, initRepo } from './gitFixtures';
import { startManagedApp, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'redo-room';

/** The person's commit on main, in their folder (where main is checked out). */
function personCommits(folder: string, file: string, text: string): void {
  writeFileSync(join(folder, file), text);
  git(folder, 'commit', '-q', '-am', `person changes ${file}`);
}

describe('a refused merge has next steps (real git, real Claude Code, fake model)', () => {
  it('updates from main when clean, refuses a conflicting update changing nothing, asks the agent to redo it, and merges its resolution as the person', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    initRepo(app.folder);
    // The person's own git identity, as their git reads it.
    git(app.folder, 'config', 'user.name', 'Ada Lovelace');
    git(app.folder, 'config', 'user.email', 'ada@example.com');
    const agent = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Juniper', permissions: 'edit' });
    const tree = agent.workspace.path;

    // main moves on elsewhere (README): Update from main brings it in, cleanly, as the person.
    app.model.script.push('Juniper', writeInWorktree('notes.md', 'notes\n'), say('Wrote notes.'));
    await app.call('agents.runNow', { agentId: agent.agentId });
    expect((await app.turnEnded(agent.agentId, 1)).status).toBe('done');
    personCommits(app.folder, 'README.md', '# Project, renamed\n');
    const updated = await app.call('agents.update', { agentId: agent.agentId });
    expect(updated).toMatchObject({ updated: true, conflicts: [], reason: null });
    expect(readFileSync(join(tree, 'README.md'), 'utf8')).toBe('# Project, renamed\n');
    expect(git(app.folder, 'log', '-1', '--format=%an <%ae>|%s', 'letagents/juniper')).toBe('Ada Lovelace <ada@example.com>|Update letagents/juniper (Juniper) from main');
    // Its merge into main is the person's, not "LetAgents" (issue 35 item 19).
    expect(await app.call('agents.merge', { agentId: agent.agentId })).toMatchObject({ merged: true });
    expect(git(app.folder, 'log', '-1', '--format=%an <%ae>|%cn', 'main')).toBe('Ada Lovelace <ada@example.com>|Ada Lovelace');

    // Both change shared.txt: the merge is refused, and so is Update from main, changing nothing.
    app.model.script.push('Juniper', writeInWorktree('shared.txt', "Juniper's line\n"), say('Changed it.'));
    await app.call('agents.runNow', { agentId: agent.agentId });
    expect((await app.turnEnded(agent.agentId, 2)).status).toBe('done');
    personCommits(app.folder, 'shared.txt', "the person's line\n");
    const refused = await app.call('agents.merge', { agentId: agent.agentId });
    expect(refused).toMatchObject({ merged: false, conflicts: ['shared.txt'] });
    // A refused merge committed what the agent left uncommitted on its branch (the docs say so).
    expect(git(app.folder, 'log', '-1', '--format=%s', 'letagents/juniper')).toBe("Juniper's uncommitted work (committed by LetAgents for the merge)");
    const branchTip = git(app.folder, 'rev-parse', 'letagents/juniper');
    const notUpdated = await app.call('agents.update', { agentId: agent.agentId });
    expect(notUpdated).toMatchObject({ updated: false, conflicts: ['shared.txt'], commit: null });
    expect(notUpdated.reason).toContain('shared.txt changed on both. Nothing was changed.');
    expect(git(app.folder, 'rev-parse', 'letagents/juniper')).toBe(branchTip);
    expect(git(tree, 'status', '--porcelain')).toBe('');
    expect(existsSync(join(app.dataDir, 'worktrees'))).toBe(true);

    // Ask Juniper to redo it: the conflicts wait in its worktree, and the room asks it, as the person.
    app.model.script.push('Juniper', writeInWorktree('shared.txt', "the person's line\nJuniper's line\n"), say('Redone on top of main.'));
    const asked = await app.call('agents.askToRedo', { agentId: agent.agentId });
    expect(asked).toMatchObject({ asked: true, conflicts: ['shared.txt'] });
    const timeline = await app.call('messages.timeline', { roomId: ROOM });
    const request = timeline.messages.find((m) => m.source === 'human' && m.text.startsWith('@Juniper main has moved on since your branch letagents/juniper left it'));
    expect(request?.text).toContain('conflict markers in shared.txt');
    // Its mention starts its turn, which resolves the file; the merge then takes the resolution.
    const redone = await app.turnEnded(agent.agentId, 3);
    expect(redone.status, JSON.stringify(redone)).toBe('done');
    expect(app.model.script.requestsFor('Juniper').at(-1)!.prompts.join('\n')).toContain('redo your change on top of main');
    const merged = await app.call('agents.merge', { agentId: agent.agentId });
    expect(merged, JSON.stringify(merged)).toMatchObject({ merged: true });
    expect(readFileSync(join(app.folder, 'shared.txt'), 'utf8')).toBe("the person's line\nJuniper's line\n");
    expect(git(app.folder, 'status', '--porcelain')).toBe('');
    const events = (await app.call('messages.timeline', { roomId: ROOM })).messages.filter((m) => m.source === 'system').map((m) => m.text);
    expect(events.filter((t) => t.includes("merged Juniper's branch letagents/juniper into main"))).toHaveLength(2);
  }, 240_000);
});
