// The builds a run measures (issue 38): this checkout, and with `--baseline <commit or folder>`
// another one beside it, so a figure shows before and after in the same run. A commit is
// exported (git archive) into a scratch folder outside the checkout, given this checkout's
// node_modules and its CLI built there, once per commit: nothing is written to the repository.
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { cliBin, repoRoot } from './processes';

export interface Build {
  /** How rows and notes name it: "this checkout", or "baseline 7adbe69". */
  readonly label: string;
  /** Its `bin/letagents-desktop.js`. */
  readonly cliBin: string;
}

export const currentBuild: Build = { label: 'this checkout', cliBin };

/**
 * The build of `ref`: a folder holding a checkout (its CLI built if it is not), or a commit of
 * this repository (exported to <tmp>/letagents-bench-baseline-<sha> and built, once).
 */
export function baselineBuild(ref: string, log: (line: string) => void): Build {
  const folder = existsSync(join(ref, 'bin', 'letagents-desktop.js')) ? resolve(ref) : exportCommit(ref, log);
  if (!existsSync(join(folder, 'out', 'cli'))) buildCli(folder, log);
  const label = `baseline ${folder === resolve(ref) ? basename(folder) : shortSha(ref)}`;
  warnIfDependenciesDiffer(folder, log);
  return { label, cliBin: join(folder, 'bin', 'letagents-desktop.js') };
}

function shortSha(ref: string): string {
  return git(['rev-parse', '--short=12', `${ref}^{commit}`]);
}

function git(args: string[]): string {
  return execFileSync('git', args, { cwd: repoRoot, encoding: 'utf8' }).trim();
}

function exportCommit(ref: string, log: (line: string) => void): string {
  let sha: string;
  try {
    sha = git(['rev-parse', '--short=12', `${ref}^{commit}`]);
  } catch {
    throw new Error(`--baseline ${ref}: neither a folder with bin/letagents-desktop.js nor a commit of this repository`);
  }
  const folder = join(tmpdir(), `letagents-bench-baseline-${sha}`);
  if (existsSync(join(folder, 'bin', 'letagents-desktop.js'))) return folder;
  log(`baseline: exporting ${ref} (${sha}) to ${folder}`);
  const partial = `${folder}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  const archive = spawnSync('git', ['archive', '--format=tar', sha], { cwd: repoRoot, maxBuffer: 1 << 30 });
  if (archive.status !== 0) throw new Error(`git archive ${sha} failed: ${archive.stderr}`);
  const untar = spawnSync('tar', ['-x', '-C', partial], { input: archive.stdout });
  if (untar.status !== 0) throw new Error(`unpacking ${sha} failed: ${untar.stderr}`);
  // The same dependencies as this checkout (the bench warns when the package lists differ).
  symlinkSync(join(repoRoot, 'node_modules'), join(partial, 'node_modules'), 'dir');
  buildCli(partial, log);
  renameSync(partial, folder);
  return folder;
}

function buildCli(folder: string, log: (line: string) => void): void {
  log(`baseline: building the CLI in ${folder}`);
  const built = spawnSync(process.execPath, [join(folder, 'scripts', 'buildCli.mjs')], { cwd: folder, encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`building the baseline's CLI failed: ${built.stderr}`);
}

function warnIfDependenciesDiffer(folder: string, log: (line: string) => void): void {
  const deps = (root: string) => JSON.stringify((JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { dependencies?: unknown }).dependencies ?? {});
  if (deps(folder) !== deps(repoRoot)) log('baseline: its dependencies differ from this checkout\'s; it runs with this checkout\'s node_modules');
}
