// Waking an open Codex session (issue 26; agent-clis.md §Codex): Codex 0.171 gives the MCP
// servers it starts no CODEX_THREAD_ID in their environment, but every tools/call carries
// the thread in its `_meta` (`threadId`, also `x-codex-turn-metadata.thread_id`). Those are the
// client's own words, so the connection takes a thread only when Codex itself shows it holds
// it (codexThread.ts: a process that started the helper holds that thread's writer lock).
// A push is `codex queue --thread <id> --message <notice> --resume`. The notice carries no
// room text (other local users can read a command line, and `codex queue` 0.171 takes the
// message only as `--message <TEXT>`: `--message -` queues a literal "-"): it names the new
// message and the session reads it with read_messages. The message is queued in the thread
// either way; resuming it needs Codex's local daemon (`codex app-server daemon start`). Without
// one the CLI still exits 0 and warns on stderr: "Warning: message was queued, but could not
// resume thread <id>: start a local daemon or specify a server with --remote" — the session
// then sees the message only when it next runs.
import { execFile } from 'node:child_process';
import { childEnv } from '../childEnv';
import { findOnPath } from '../setup/detect';
import type { CodexQueueState, ConnectionState } from './connectionState';
import { codexHoldsThread } from './codexThread';
import { pushMeta, type PushedMessages, type PushSink } from './sessionPush';

/** Codex's MCP client names itself so in initialize (0.171). */
export const CODEX_CLIENT = 'codex-mcp-client';
const THREAD_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const QUEUE_TIMEOUT_MS = 30_000;
const NO_DAEMON = /could not resume thread/;

/** Notes the Codex thread a Codex client's tools/call names in its _meta, once Codex shows it holds it. */
export function noteCodexThread(state: ConnectionState, meta: Record<string, unknown> | undefined): void {
  if (state.clientName !== CODEX_CLIENT) return;
  const thread = meta?.threadId;
  if (typeof thread !== 'string' || thread === state.codexThread || !THREAD_ID.test(thread)) return;
  if (codexHoldsThread(state.info.helperPid, thread)) state.codexThread = thread;
}

export function codexQueueSink(state: ConnectionState, env: NodeJS.ProcessEnv = childEnv()): PushSink {
  return {
    via: 'codex_queue',
    async send(push) {
      const thread = state.codexThread;
      if (!thread) return note(state, 'unknown_thread', false);
      const codex = await findOnPath('codex', { platform: process.platform, env });
      if (!codex) return note(state, 'not_installed', false);
      const outcome = await queue(codex, thread, queuedNotice(push), env);
      if (outcome === 'failed') return note(state, 'failed', false);
      return note(state, outcome, true);
    },
  };
}

function note(state: ConnectionState, outcome: CodexQueueState, pushed: boolean): boolean {
  state.codexQueue = outcome;
  return pushed;
}

/** What the Codex session is told: which message is new and where, never its text (it reads that with read_messages). */
export function queuedNotice(push: PushedMessages): string {
  const meta = pushMeta(push);
  const what = push.rows.length > 1 ? `${push.rows.length} new messages, the newest ${meta.message_id}` : `a new message, ${meta.message_id}`;
  return `[LetAgents room ${meta.room}: ${what}${meta.thread ? ` in thread ${meta.thread}` : ''}. Read it with read_messages and answer with send_message.]`;
}

function queue(codex: string, thread: string, notice: string, env: NodeJS.ProcessEnv): Promise<'resumed' | 'no_daemon' | 'failed'> {
  return new Promise((resolve) => {
    execFile(codex, ['queue', '--thread', thread, '--message', notice, '--resume'], { env, timeout: QUEUE_TIMEOUT_MS }, (error, _stdout, stderr) => {
      if (error) {
        console.warn(`codex queue for thread ${thread} failed: ${String(stderr).trim().split('\n').at(-1) ?? error.message}`);
        return resolve('failed');
      }
      resolve(NO_DAEMON.test(String(stderr)) ? 'no_daemon' : 'resumed');
    });
  });
}
