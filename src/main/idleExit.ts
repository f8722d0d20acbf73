// An app a helper started in the background exits on its own after a quiet period with no
// agent connected, no managed agent that still takes turns, and no window or browser tab,
// so it does not run for ever after the last agent went away. Only counts kept in memory are
// looked at, every few seconds.

export interface IdleWatchOptions {
  readonly quietMs: number;
  /** Something still needs the app (an agent, a managed agent, a window). */
  readonly busy: () => Promise<boolean>;
  readonly onIdle: () => void;
}

export function watchIdle(options: IdleWatchOptions): { stop(): void } {
  const every = Math.min(Math.max(options.quietMs / 4, 250), 30_000);
  let quietSince: number | null = Date.now();
  let done = false;
  const check = async () => {
    if (await options.busy()) {
      quietSince = null;
      return;
    }
    quietSince ??= Date.now();
    if (!done && Date.now() - quietSince >= options.quietMs) {
      done = true;
      clearInterval(timer);
      options.onIdle();
    }
  };
  const timer = setInterval(() => void check().catch((error: unknown) => console.warn('idle check failed:', error)), every);
  timer.unref();
  return {
    stop: () => {
      done = true;
      clearInterval(timer);
    },
  };
}

/** "10 min", "45 s": the quiet period in words, for `doctor` and the log. */
export function quietPeriodText(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}
