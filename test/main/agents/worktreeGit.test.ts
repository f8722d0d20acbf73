// The git the app runs in a managed agent's worktree (each turn's stat, Changes, Merge, Discard,
// Remove) obeys nothing the agent can write (issue 32, item 3). An agent may write anything in
// its worktree, its `.git` file included; each test plants one escape there as an agent would
// (real git repositories in temp folders), runs everything the app does with git, and shows
// that nothing ran and that Merge, Discard and Remove refuse, naming why, when `.git` was changed.
import { appendFileSync, cpSync, existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AgentWorkspaces } from '../../../src/main/agents/workspace/agentWorkspaces';
import { worktreeRoot } from '../../../src/main/agents/workspace/workspace';
import { cleanupSpawned, tempDir } from '../../support';
import { git, hooksFolder, initRepo, marks, type Marks } from './gitFixtures';

afterEach(cleanupSpawned);

const AGENT = 'agent_ada';

interface Setup {
  readonly repo: string;
  readonly tree: string;
  readonly ws: AgentWorkspaces;
  readonly m: Marks;
}

async function setUp(personConfig: (repo: string, m: Marks) => void = () => {}): Promise<Setup> {
  const repo = join(tempDir('la-gitsafe-'), 'project');
  mkdirSync(repo);
  initRepo(repo);
  const m = marks();
  personConfig(repo, m);
  const data = join(tempDir('la-gitsafe-data-'), 'data');
  const ws = new AgentWorkspaces(data);
  const made = await ws.create({ agentId: AGENT, name: 'Ada', folder: repo, writes: true, inFolder: false });
  expect(made).toMatchObject({ kind: 'worktree', branch: 'letagents/ada' });
  const tree = worktreeRoot(data, AGENT);
  // The agent's own work: one edit, one new file.
  writeFileSync(join(tree, 'shared.txt'), 'Ada was here\n');
  writeFileSync(join(tree, 'notes.md'), '# Notes\n');
  return { repo, tree, ws, m };
}

/** Everything the app does with git in a worktree, in the order a person meets it; each outcome or its error. */
async function everything(s: Setup) {
  const settle = <T>(p: Promise<T>) => p.then((value) => ({ ok: true as const, value }), (error: Error) => ({ ok: false as const, error: error.message }));
  const stat = await settle(s.ws.turnSummary(AGENT, s.repo));
  const changes = await settle(s.ws.changes(AGENT, s.repo, true));
  const merge = await settle(s.ws.merge(AGENT, s.repo, 'Ada', 'Person'));
  const remove = await settle(s.ws.checkRemovable(AGENT, s.repo, true));
  const discard = await settle(s.ws.discard(AGENT, s.repo));
  return { stat, changes, merge, remove, discard };
}

/** What the person has: their branch's commit, what they staged, their files. */
function personState(repo: string) {
  return { main: git(repo, 'rev-parse', 'main'), head: git(repo, 'symbolic-ref', 'HEAD'), staged: git(repo, 'diff', '--cached'), status: git(repo, 'status', '--porcelain'), shared: readFileSync(join(repo, 'shared.txt'), 'utf8') };
}

function expectRefused(outcome: Awaited<ReturnType<typeof everything>>, why: RegExp): void {
  expect(outcome.merge).toMatchObject({ ok: true, value: { merged: false, commit: null } });
  expect((outcome.merge as { value: { reason: string } }).value.reason).toMatch(why);
  for (const refusal of [outcome.remove, outcome.discard]) {
    expect(refusal.ok).toBe(false);
    expect((refusal as { error: string }).error).toMatch(why);
  }
}

describe("the app's own git in an agent's worktree (real git)", () => {
  it('ignores a .git file the agent pointed at a git folder of its own whose config runs programs, and refuses Merge, Discard and Remove naming why', async () => {
    const s = await setUp();
    const before = personState(s.repo);
    // The agent copies the repository's git folder into its worktree, points `.git` at it and
    // gives it config that runs its programs wherever git would run one.
    const evil = join(s.tree, '.evil-git');
    cpSync(join(s.repo, '.git'), evil, { recursive: true });
    writeFileSync(join(evil, 'HEAD'), 'ref: refs/heads/letagents/ada\n');
    const attributes = join(evil, 'attributes-everywhere');
    writeFileSync(attributes, '* diff=evil filter=evil merge=evil\n');
    const included = join(evil, 'included.config');
    writeFileSync(included, `[core]\n\tfsmonitor = ${s.m.program('include-fsmonitor', 'fail')}\n[diff]\n\texternal = ${s.m.program('include-external-diff')}\n`);
    const conditional = join(evil, 'conditional.config');
    writeFileSync(conditional, `[core]\n\tpager = ${s.m.program('includeif-pager')}\n`);
    appendFileSync(join(evil, 'config'), [
      '[core]',
      `\tfsmonitor = ${s.m.program('fsmonitor', 'fail')}`,
      `\thooksPath = ${hooksFolder(s.m, join(evil, 'evil-hooks'))}`,
      `\tpager = ${s.m.program('pager')}`,
      `\teditor = ${s.m.program('editor')}`,
      `\tsshCommand = ${s.m.program('ssh-command')}`,
      `\taskPass = ${s.m.program('askpass')}`,
      `\tattributesFile = ${attributes}`,
      '[diff]',
      `\texternal = ${s.m.program('external-diff')}`,
      '[diff "evil"]',
      `\ttextconv = ${s.m.program('textconv', 'catFirstArg')}`,
      `\tcommand = ${s.m.program('diff-driver')}`,
      '[filter "evil"]',
      `\tclean = ${s.m.program('filter-clean', 'cat')}`,
      `\tsmudge = ${s.m.program('filter-smudge', 'cat')}`,
      '[merge "evil"]',
      `\tdriver = ${s.m.program('merge-driver', 'fail')}`,
      '[credential]',
      `\thelper = !${s.m.program('credential-helper')}`,
      '[gpg]',
      `\tprogram = ${s.m.program('gpg', 'fail')}`,
      '[commit]',
      '\tgpgSign = true',
      '[sequence]',
      `\teditor = ${s.m.program('sequence-editor')}`,
      '[alias]',
      `\tstatus = !${s.m.program('alias')}`,
      '[safe]',
      '\tdirectory = *',
      '[include]',
      `\tpath = ${included}`,
      `[includeIf "gitdir:${evil}/"]`,
      `\tpath = ${conditional}`,
      '',
    ].join('\n'));
    writeFileSync(join(s.tree, '.gitattributes'), '* diff=evil filter=evil merge=evil\n');
    writeFileSync(join(s.tree, '.git'), 'gitdir: .evil-git\n');

    const outcome = await everything(s);
    expect(s.m.left()).toEqual([]);
    // The stat and the Changes read the agent's real branch, through the git folder the app made.
    expect(outcome.stat).toMatchObject({ ok: true, value: expect.stringContaining('Changes on letagents/ada against main') });
    expect(outcome.changes).toMatchObject({ ok: true, value: { branch: 'letagents/ada', files: expect.arrayContaining([{ path: 'shared.txt', added: 1, removed: 1, binary: false }]) } });
    expectRefused(outcome, /\.git points at .*\.evil-git, not at the git folder LetAgents made for this worktree \(.*\.git\/worktrees\/.*\)/);
    expect((outcome.merge as { value: { reason: string } }).value.reason).toContain(`gitdir: ${join(s.repo, '.git', 'worktrees')}`);
    expect(personState(s.repo)).toEqual(before);
    expect(existsSync(join(s.tree, 'notes.md'))).toBe(true);
  });

  it("refuses Merge, Discard and Remove when .git is a symbolic link to the person's git folder, leaving their branch, staging and files as they were", async () => {
    const s = await setUp();
    writeFileSync(join(s.repo, 'staged.txt'), 'the person staged this\n');
    git(s.repo, 'add', 'staged.txt');
    const before = personState(s.repo);
    rmSync(join(s.tree, '.git'));
    symlinkSync(join(s.repo, '.git'), join(s.tree, '.git'));

    const outcome = await everything(s);
    expectRefused(outcome, /\.git is a symbolic link/);
    expect(outcome.changes).toMatchObject({ ok: true, value: { branch: 'letagents/ada', files: [{ path: 'notes.md' }, { path: 'shared.txt' }] } });
    expect(personState(s.repo)).toEqual(before);
    expect(git(s.repo, 'diff', '--cached', '--name-only')).toBe('staged.txt');
  });

  it('keeps the next turn in the worktree (never the person\'s folder) and refuses Merge when the agent deleted its .git file', async () => {
    const s = await setUp();
    rmSync(join(s.tree, '.git'));
    const next = await s.ws.forTurn(AGENT, s.repo);
    expect(next).toMatchObject({ kind: 'worktree', path: s.tree });
    const outcome = await everything(s);
    expectRefused(outcome, /\.git is missing/);
    expect(outcome.changes).toMatchObject({ ok: true, value: { files: [{ path: 'notes.md' }, { path: 'shared.txt' }] } });
  });

  it("runs no hook the agent wrote when the person's repository keeps its hooks in the tree (a relative core.hooksPath, as husky sets), merging included", async () => {
    const s = await setUp((repo) => git(repo, 'config', 'core.hooksPath', '.husky'));
    hooksFolder(s.m, join(s.tree, '.husky'));
    const stat = await s.ws.turnSummary(AGENT, s.repo);
    expect(stat).toMatch(/: 30 files .*\.husky\/applypatch-msg/);
    await s.ws.changes(AGENT, s.repo, true);
    // Merge commits the agent's leftovers on its branch, then merges into the person's checked-out main.
    const merged = await s.ws.merge(AGENT, s.repo, 'Ada', 'Person');
    expect(merged).toMatchObject({ merged: true });
    expect(readFileSync(join(s.repo, 'shared.txt'), 'utf8')).toBe('Ada was here\n');
    await s.ws.checkRemovable(AGENT, s.repo, false);
    await s.ws.forget(AGENT, s.repo);
    expect(s.m.left()).toEqual([]);
  });

  it('runs nothing in a repository the agent nested in its worktree (its fsmonitor), even when its .gitmodules asks git to look inside', async () => {
    const s = await setUp();
    const nested = join(s.tree, 'vendor');
    mkdirSync(nested);
    git(nested, 'init', '-q');
    git(nested, 'commit', '-q', '--allow-empty', '-m', 'nested');
    git(nested, 'config', 'core.fsmonitor', s.m.program('nested-fsmonitor', 'fail'));
    writeFileSync(join(nested, 'dirty.txt'), 'changed inside\n');
    writeFileSync(join(s.tree, '.gitmodules'), '[submodule "vendor"]\n\tpath = vendor\n\turl = ./vendor\n\tignore = none\n');
    // The first Merge commits the nested repository on the agent's branch; everything after reads it as a submodule.
    await s.ws.turnSummary(AGENT, s.repo);
    await s.ws.changes(AGENT, s.repo, true);
    expect(await s.ws.merge(AGENT, s.repo, 'Ada', 'Person')).toMatchObject({ merged: true });
    writeFileSync(join(nested, 'dirty.txt'), 'changed again\n');
    const stat = await s.ws.turnSummary(AGENT, s.repo);
    expect(stat).not.toBeNull();
    await s.ws.changes(AGENT, s.repo, true);
    await s.ws.checkRemovable(AGENT, s.repo, true);
    await s.ws.forget(AGENT, s.repo);
    expect(s.m.left()).toEqual([]);
  });

  it("ignores variables of the app's own environment that would choose another git folder or diff program (an app a helper started inherits its agent's)", async () => {
    const s = await setUp();
    const evil = join(tempDir('la-gitsafe-env-'), 'git');
    cpSync(join(s.repo, '.git'), evil, { recursive: true });
    appendFileSync(join(evil, 'config'), `[core]\n\tfsmonitor = ${s.m.program('env-git-dir-fsmonitor', 'fail')}\n\thooksPath = ${hooksFolder(s.m, join(evil, 'hooks-here'))}\n`);
    const saved = { GIT_DIR: process.env.GIT_DIR, GIT_EXTERNAL_DIFF: process.env.GIT_EXTERNAL_DIFF };
    process.env.GIT_DIR = evil;
    process.env.GIT_EXTERNAL_DIFF = s.m.program('env-external-diff');
    try {
      const changes = await s.ws.changes(AGENT, s.repo, true);
      expect(changes.files).toEqual([{ path: 'notes.md', added: 1, removed: 0, binary: false }, { path: 'shared.txt', added: 1, removed: 1, binary: false }]);
      expect(changes.diff).toContain('+Ada was here');
      expect(await s.ws.merge(AGENT, s.repo, 'Ada', 'Person')).toMatchObject({ merged: true });
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
    expect(readFileSync(join(s.repo, 'shared.txt'), 'utf8')).toBe('Ada was here\n');
    expect(git(s.repo, 'log', '-1', '--format=%s', 'main')).toBe('Merge letagents/ada (Ada) into main');
    expect(s.m.left()).toEqual([]);
  });

  it("runs no diff program, textconv or signing program of the person's config on the agent's files", async () => {
    const s = await setUp((repo, m) => {
      git(repo, 'config', 'diff.external', m.program('person-external-diff'));
      git(repo, 'config', 'diff.shown.textconv', m.program('person-textconv', 'catFirstArg'));
      git(repo, 'config', 'commit.gpgSign', 'true');
      git(repo, 'config', 'gpg.program', m.program('person-gpg', 'fail'));
    });
    writeFileSync(join(s.tree, '.gitattributes'), '*.md diff=shown\n');
    const changes = await s.ws.changes(AGENT, s.repo, true);
    expect(changes.diff).toContain('+# Notes');
    expect(await s.ws.merge(AGENT, s.repo, 'Ada', 'Person')).toMatchObject({ merged: true });
    expect(s.m.left()).toEqual([]);
  });
});
