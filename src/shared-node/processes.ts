// What another process of this user is: its command line and parent (Linux /proc, macOS ps),
// and the files it holds open (Linux /proc/<pid>/fd, macOS lsof). The stdio helper reads its
// ancestors' command lines (Claude Code's channel flag); the app reads which Codex thread the
// process that started a helper holds (mcp/codexThread.ts). Null where it cannot be read here.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

export interface ProcessLine {
  readonly args: readonly string[];
  readonly parent: number;
}

export function processLine(pid: number): ProcessLine | null {
  if (process.platform === 'linux') {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      // stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses, so read after the last ')'.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      return { args, parent };
    } catch {
      return null;
    }
  }
  if (process.platform === 'darwin') {
    try {
      const out = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8', timeout: 1_000 }).trim();
      const match = /^(\d+)\s+(.*)$/s.exec(out);
      // ps prints the arguments joined by spaces: enough to find a flag.
      return match ? { parent: Number(match[1]), args: match[2].split(/\s+/) } : null;
    } catch {
      return null;
    }
  }
  return null;
}

/** Up to `count` processes above `pid` (its parent first), as far as they can be read. */
export function ancestorsOf(pid: number, count: number): number[] {
  const out: number[] = [];
  let current = pid;
  while (out.length < count) {
    const parent = processLine(current)?.parent;
    if (!parent || parent <= 1) break;
    out.push(parent);
    current = parent;
  }
  return out;
}

/** The paths of the files `pid` holds open; null where that cannot be read. */
export function openFilesOf(pid: number): string[] | null {
  if (process.platform === 'linux') {
    try {
      return readdirSync(`/proc/${pid}/fd`).flatMap((fd) => {
        try {
          return [readlinkSync(`/proc/${pid}/fd/${fd}`)];
        } catch {
          return []; // closed meanwhile
        }
      });
    } catch {
      return null;
    }
  }
  if (process.platform === 'darwin') {
    try {
      const out = execFileSync('lsof', ['-a', '-p', String(pid), '-Fn'], { encoding: 'utf8', timeout: 2_000 });
      return out.split('\n').filter((line) => line.startsWith('n')).map((line) => line.slice(1));
    } catch {
      return null;
    }
  }
  return null;
}
