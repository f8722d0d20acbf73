// W1 (issue 28): what a worktree of its own costs a managed agent on a repository of 10,000
// files: making the worktree (once, when the agent is added) and reading its changes after
// each turn (files and lines added and removed, committed and uncommitted, against the base).
// The reference is a bare `git status` in the same worktree: git looking at the files at all.
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { readChanges } from '../../src/main/agents/workspace/changes';
import { createWorkspace, worktreeRoot } from '../../src/main/agents/workspace/workspace';
import type { Figure } from '../lib/figure';
import { tempDir } from '../lib/processes';
import { summarize } from '../lib/stats';

const FILES = 10_000;
const CREATES = 5;
const TURNS = 20;
const TARGET_MS = 150;

export const w1: Figure = {
  id: 'W1',
  what: 'worktree overhead on a 10,000-file repository: create, and the per-turn diff stat',
  target: `≤ ${TARGET_MS} ms per turn (diff stat)`,
  async run(ctx) {
    const root = tempDir();
    const repo = join(root, 'repo');
    const data = join(root, 'data');
    const started = performance.now();
    makeRepository(repo);
    ctx.log(`W1: ${FILES} files committed in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const creates: number[] = [];
    let gitDir = '';
    for (let i = 0; i < CREATES; i++) {
      const t = performance.now();
      const ws = await createWorkspace(data, { agentId: `agent_${i}`, name: `bench ${i}`, folder: repo, writes: true, inFolder: false });
      creates.push(performance.now() - t);
      if (ws.kind !== 'worktree') throw new Error(`no worktree: ${ws.note}`);
      if (i === 0) gitDir = ws.gitDir!;
    }
    const tree = worktreeRoot(data, 'agent_0');
    const w = { root: tree, gitDir, repo, branch: 'letagents/bench-0', base: 'main' };
    const turns: number[] = [];
    const status: number[] = [];
    for (let i = 0; i < TURNS; i++) {
      // A turn's worth of edits: two files changed, one added.
      writeFileSync(join(tree, 'd0', `f${i % 100}.txt`), `changed in turn ${i}\n`);
      writeFileSync(join(tree, 'd1', `f${i % 100}.txt`), `changed in turn ${i}\n`);
      writeFileSync(join(tree, `new-${i}.txt`), 'new\n');
      let t = performance.now();
      execFileSync('git', ['status', '--porcelain'], { cwd: tree });
      status.push(performance.now() - t);
      t = performance.now();
      const changes = await readChanges(w, false);
      turns.push(performance.now() - t);
      if (changes.files.length < 3) throw new Error('the diff stat missed changes');
    }
    const ours = summarize(turns);
    const c = summarize(creates);
    return {
      ours: { ...ours, label: 'per-turn diff stat (files, lines, committed and uncommitted)', unit: 'ms' },
      floor: { ...summarize(status), label: 'git status --porcelain in the same worktree', unit: 'ms' },
      ratio: ours.median / summarize(status).median,
      met: ours.p99 <= TARGET_MS,
      notes: [`worktree create (git worktree add of ${FILES} files): median ${c.median.toFixed(0)} ms, max ${c.max.toFixed(0)} ms over ${CREATES}`],
    };
  },
};

function makeRepository(repo: string): void {
  mkdirSync(repo, { recursive: true });
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=Bench', '-c', 'user.email=b@example.com', ...args], { cwd: repo });
  git('init', '-q', '-b', 'main');
  for (let d = 0; d < FILES / 100; d++) {
    mkdirSync(join(repo, `d${d}`));
    for (let f = 0; f < 100; f++) writeFileSync(join(repo, `d${d}`, `f${f}.txt`), `file ${d}/${f}\n`.repeat(5));
  }
  git('add', '-A');
  git('commit', '-q', '-m', 'ten thousand files');
}
