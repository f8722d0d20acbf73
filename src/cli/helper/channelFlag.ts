// Whether the agent that started this helper loaded it as a Claude Code channel (issue 26):
// Claude Code pushes channel notifications into a session only when it was started with
// `--dangerously-load-development-channels server:<name>` (or `--channels plugin:…`), and
// nothing in the MCP handshake says so. The helper is the agent's child (sometimes through
// npx or a shell), so it looks for the flag in the command lines of its nearest ancestors.
// True: an ancestor carries it; false: they were read and none does; null: they cannot be
// read here (not Linux or macOS, or /proc and ps are unavailable).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

export const CHANNEL_FLAGS = ['--dangerously-load-development-channels', '--channels'] as const;
/** How far up the process tree the agent may be (helper ← npx ← shell ← agent). */
const ANCESTORS = 4;

interface ProcessLine {
  readonly args: readonly string[];
  readonly parent: number;
}

export function channelFlagOfAgent(): boolean | null {
  const read = process.platform === 'linux' ? linuxProcess : process.platform === 'darwin' ? psProcess : null;
  if (!read) return null;
  let pid = process.ppid;
  for (let i = 0; i < ANCESTORS && pid > 1; i++) {
    const line = read(pid);
    if (!line) return i === 0 ? null : false;
    if (line.args.some(isChannelFlag)) return true;
    pid = line.parent;
  }
  return false;
}

export const isChannelFlag = (arg: string) => CHANNEL_FLAGS.some((flag) => arg === flag || arg.startsWith(`${flag}=`));

function linuxProcess(pid: number): ProcessLine | null {
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

function psProcess(pid: number): ProcessLine | null {
  try {
    const out = execFileSync('ps', ['-o', 'ppid=,args=', '-p', String(pid)], { encoding: 'utf8', timeout: 1_000 }).trim();
    const match = /^(\d+)\s+(.*)$/s.exec(out);
    // ps prints the arguments joined by spaces: enough to find a flag.
    return match ? { parent: Number(match[1]), args: match[2].split(/\s+/) } : null;
  } catch {
    return null;
  }
}
