// Which Codex thread a connection may be queued into (issue 32 item 12). A client's name and
// the thread its tools/call `_meta` names are both its own words: any client can call itself
// `codex-mcp-client` and name another session's thread. What Codex itself shows is on disk: the
// Codex process writing a thread holds `$CODEX_HOME/thread-writer-locks/<thread>.lock` open
// (0.171; checked on the real CLI), and the stdio helper it started is its child. So a claimed
// thread counts only when one of the helper's nearest ancestors holds that thread's lock.
import { basename, dirname } from 'node:path';
import { ancestorsOf, openFilesOf } from '../../shared-node/processes';

/** How far up the process tree Codex may be (helper ← npx ← shell ← codex). */
const ANCESTORS = 4;

/** True when a process that started the helper `helperPid` holds Codex's writer lock of `thread`. */
export function codexHoldsThread(helperPid: number | null | undefined, thread: string): boolean {
  if (!helperPid) return false;
  const lock = `${thread}.lock`;
  return ancestorsOf(helperPid, ANCESTORS).some((pid) =>
    (openFilesOf(pid) ?? []).some((file) => basename(file) === lock && basename(dirname(file)) === 'thread-writer-locks'),
  );
}
