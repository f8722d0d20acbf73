// Whether the agent that started this helper loaded it as a Claude Code channel (issue 26):
// Claude Code pushes channel notifications into a session only when it was started with
// `--dangerously-load-development-channels server:<name>` (or `--channels plugin:…`), and
// nothing in the MCP handshake says so. The helper is the agent's child (sometimes through
// npx or a shell), so it looks for the flag in the command lines of its nearest ancestors.
// True: an ancestor carries it; false: they were read and none does; null: they cannot be
// read here (not Linux or macOS, or /proc and ps are unavailable).
import { processLine } from '../../shared-node/processes';

export const CHANNEL_FLAGS = ['--dangerously-load-development-channels', '--channels'] as const;
/** How far up the process tree the agent may be (helper ← npx ← shell ← agent). */
const ANCESTORS = 4;

export function channelFlagOfAgent(): boolean | null {
  let pid = process.ppid;
  for (let i = 0; i < ANCESTORS && pid > 1; i++) {
    const line = processLine(pid);
    if (!line) return i === 0 ? null : false;
    if (line.args.some(isChannelFlag)) return true;
    pid = line.parent;
  }
  return false;
}

export const isChannelFlag = (arg: string) => CHANNEL_FLAGS.some((flag) => arg === flag || arg.startsWith(`${flag}=`));
