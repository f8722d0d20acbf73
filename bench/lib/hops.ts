// Where the time goes, hop by hop (issue 38): with `npm run bench -- B1 --hops` the figure's
// `serve` and helpers run with LETAGENTS_HOP_TRACE (src/shared-node/hopTrace.ts) and this
// process notes when its SDK clients send and receive, all on the monotonic clock the machine's
// processes share. After the figure the marks are joined per request (helper pid + JSON-RPC id)
// and per message (room + number), and each hop between two marks is summarized.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HOP_TRACE_ENV, nowMicros, type HopMark } from '../../src/shared-node/hopTrace';
import { summarize } from './stats';

/** Marks of one request (by hop) or one message (by hop, per app process). */
export type Marks = Map<string, number>;

export interface Trace {
  /** Per request, `<helper pid>:<id>`: agent.*, helper.*, and the app's app.read/call/woken/answer. */
  readonly requests: Map<string, Marks>;
  /** Per message, `<room>:<number>`, per app process: app.commit (and in a team, app.commit_sent before it), app.hint_in, app.hint_out. */
  readonly messages: Map<string, Map<number, Marks>>;
  /** Per app process, the time of each app.* mark of a request: which app answered it. */
  readonly appOf: Map<string, number>;
}

let folder: string | null = null;
let clientMarks: Array<{ t: number; hop: string; key: string }> = [];

/** Starts tracing into `dir` (a fresh temp folder): processes started from now on get it in their environment. */
export function startHopTrace(dir: string): void {
  folder = dir;
  clientMarks = [];
}

/** LETAGENTS_HOP_TRACE for a process to start, while tracing. */
export function hopTraceEnv(): Record<string, string> {
  return folder ? { [HOP_TRACE_ENV]: folder } : {};
}

/** Notes one of this process's clients sending (agent.send) or receiving (agent.recv) request `id` through helper `pid`. */
export function markClient(hop: 'agent.send' | 'agent.recv', pid: number | undefined, id: unknown): void {
  if (folder && pid !== undefined && (typeof id === 'number' || typeof id === 'string')) clientMarks.push({ t: nowMicros(), hop, key: `${pid}:${id}` });
}

/** Stops tracing and joins what every process wrote (call after they exited). */
export function collectHopTrace(): Trace {
  const requests = new Map<string, Marks>();
  const messages = new Map<string, Map<number, Marks>>();
  const appOf = new Map<string, number>();
  const note = (key: string, hop: string, t: number) => {
    let marks = requests.get(key);
    if (!marks) requests.set(key, (marks = new Map()));
    if (!marks.has(hop)) marks.set(hop, t);
  };
  for (const m of clientMarks) note(m.key, m.hop, m.t);
  const dir = folder;
  folder = null;
  clientMarks = [];
  if (!dir) return { requests, messages, appOf };
  for (const file of readdirSync(dir)) {
    const match = /^(helper|app)-(\d+)\.jsonl$/.exec(file);
    if (!match) continue;
    const pid = Number(match[2]);
    const marks = readFileSync(join(dir, file), 'utf8').split('\n').filter(Boolean).map((line) => JSON.parse(line) as HopMark);
    if (match[1] === 'helper') {
      for (const m of marks) note(`${pid}:${m.key}`, m.hop, m.t);
      continue;
    }
    // The app names a request by its connection; its hello mark says which helper that is.
    const helperOf = new Map<string, string>();
    for (const m of marks) {
      if (m.hop !== 'app.hello') continue;
      const cut = m.key.lastIndexOf(':');
      helperOf.set(m.key.slice(0, cut), m.key.slice(cut + 1));
    }
    for (const m of marks) {
      if (m.hop === 'app.commit' || m.hop === 'app.commit_sent' || m.hop === 'app.hint_in' || m.hop === 'app.hint_out') {
        let perApp = messages.get(m.key);
        if (!perApp) messages.set(m.key, (perApp = new Map()));
        let byHop = perApp.get(pid);
        if (!byHop) perApp.set(pid, (byHop = new Map()));
        if (!byHop.has(m.hop)) byHop.set(m.hop, m.t);
      } else if (m.hop !== 'app.hello') {
        const cut = m.key.indexOf(':');
        const helper = helperOf.get(m.key.slice(0, cut));
        if (helper === undefined) continue;
        const key = `${helper}:${m.key.slice(cut + 1)}`;
        note(key, m.hop, m.t);
        appOf.set(key, pid);
      }
    }
  }
  return { requests, messages, appOf };
}

/** The commit of a message by app `pid` that falls between two marks of a request (its own write). */
export function commitWithin(trace: Trace, pid: number | undefined, from: number, to: number): { key: string; t: number } | null {
  for (const [key, perApp] of trace.messages) {
    const t = pid === undefined ? undefined : perApp.get(pid)?.get('app.commit');
    if (t !== undefined && t >= from && t <= to) return { key, t };
  }
  return null;
}

/** One sample: the hops it passed, in order, with their times (µs). */
export type Chain = ReadonlyArray<readonly [hop: string, t: number]>;

/**
 * Summarizes chains of the same hops: per step (from one hop to the next), the median and p99
 * in ms, and the whole. Lines for a figure's notes; `names` says what each step is.
 */
export function hopTable(title: string, chains: readonly Chain[], names: Record<string, string>): string[] {
  const usable = chains.filter((c) => c.length > 1 && c.every(([, t], i) => i === 0 || t >= c[i - 1][1]));
  if (usable.length === 0) return [`${title}: no complete traces`];
  const steps = usable[0].slice(1).map(([hop], i) => `${usable[0][i][0]} → ${hop}`);
  const dropped = chains.length - usable.length;
  const lines = [`${title} (${usable.length} traced${dropped > 0 ? `, ${dropped} with marks out of order left out` : ''}; ms, median / p99):`];
  const fmt = (us: number) => (us / 1000).toFixed(3);
  steps.forEach((step, i) => {
    const s = summarize(usable.map((c) => c[i + 1][1] - c[i][1]));
    lines.push(`  ${fmt(s.median).padStart(7)} / ${fmt(s.p99).padStart(7)}  ${names[step] ?? step}`);
  });
  const whole = summarize(usable.map((c) => c[c.length - 1][1] - c[0][1]));
  lines.push(`  ${fmt(whole.median).padStart(7)} / ${fmt(whole.p99).padStart(7)}  whole (${usable[0][0][0]} → ${usable[0].at(-1)![0]})`);
  return lines;
}

/** A request's marks in `hops` order, or null when one is missing. */
export function chainOf(marks: Marks | undefined, hops: readonly string[]): Array<[string, number]> | null {
  if (!marks) return null;
  const chain: Array<[string, number]> = [];
  for (const hop of hops) {
    const t = marks.get(hop);
    if (t === undefined) return null;
    chain.push([hop, t]);
  }
  return chain;
}

/** What each step of a request is, in words (the per-hop table of docs/performance.md). */
export const STEP_NAMES: Record<string, string> = {
  'agent.send → helper.agent_in': "agent's stdio write → helper has the frame",
  'helper.agent_in → helper.app_out': 'helper passes it on (socket write)',
  'helper.app_out → app.read': 'socket → app has the message (read, JSON parse, JSON-RPC check)',
  'app.read → app.call': 'MCP SDK dispatch, tool argument check',
  'app.call → app.commit': 'tool, up to its SQLite COMMIT',
  'app.commit → app.answer': 'after the commit: events, result, answer written',
  'app.call → app.answer': 'tool, result, answer written',
  'app.answer → helper.app_in': 'socket → helper has the answer',
  'helper.app_in → helper.agent_out': 'helper passes it on (stdout write)',
  'helper.agent_out → agent.recv': "pipe → agent's SDK client has the result",
  'app.commit → app.woken': "commit → event → the waiter's wait resumes",
  'app.woken → app.answer': "waiter's look, routing, gathering, result written",
  'app.commit_sent → app.hint_in': "A sends COMMIT (its NOTIFY) → B's listener has the hint",
  'app.hint_in → app.hint_out': 'hint coalescer hands it on',
  'app.hint_out → app.woken': "B's event → the waiter's wait resumes",
};
