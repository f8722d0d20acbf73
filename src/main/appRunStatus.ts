// What a running app says about itself over the agent socket (`app.status`), for `doctor`
// and `letagents-desktop stop`. Plain data: the command line reads the same shape.
import { quietPeriodText } from './idleExit';

export interface AppRunStatus {
  /** `serve` (headless, browser UI) or the desktop app. */
  readonly kind: 'serve' | 'desktop';
  readonly pid: number;
  readonly startedAt: string;
  /** An agent's helper started it in the background, or a person did. */
  readonly startedBy: 'agent' | 'person';
  /** Agents connected now (helpers and /mcp sessions). */
  readonly agents: number;
  /** Windows and browser tabs showing the UI now. */
  readonly windows: number;
  /** It exits after this long with no agent, managed agent or window; null: it keeps running. */
  readonly idleExitMs: number | null;
  readonly version: string;
}

/** "`serve` (pid 4242, started by an agent's helper); 2 agents connected, no window; it exits after 10 min without any." */
export function describeRunningApp(status: AppRunStatus): string {
  const kind = status.kind === 'serve' ? '`letagents-desktop serve`' : 'the desktop app';
  const by = status.startedBy === 'agent' ? "started by an agent's helper" : 'started by you';
  const count = (n: number, one: string, many: string) => (n === 0 ? `no ${one}` : `${n} ${n === 1 ? one : many}`);
  const windows = count(status.windows, status.kind === 'serve' ? 'browser tab' : 'window', status.kind === 'serve' ? 'browser tabs' : 'windows');
  const idle = status.idleExitMs === null
    ? 'it runs until stopped'
    : `it exits on its own after ${quietPeriodText(status.idleExitMs)} with no agent and no window`;
  return `${kind} (pid ${status.pid}, ${by}, version ${status.version}); ${count(status.agents, 'agent', 'agents')} connected, ${windows} open; ${idle}`;
}

export function isAppRunStatus(value: unknown): value is AppRunStatus {
  const v = value as Partial<AppRunStatus> | null;
  return typeof v === 'object' && v !== null && typeof v.pid === 'number' && (v.kind === 'serve' || v.kind === 'desktop');
}
