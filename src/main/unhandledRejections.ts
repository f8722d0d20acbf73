// An app host (serve, the Electron main process) outlives a promise nobody caught: Node's
// default ends the process on one, and an agent that vanished mid-send (EPIPE) must not take
// the app and every other agent down with it. Logged, a few a minute, never fatal.
const LOGGED_PER_MINUTE = 10;

let installed = false;

/** Installs the process-wide handler once; later calls do nothing. */
export function logUnhandledRejections(log: (message: string, reason: unknown) => void = console.error): void {
  if (installed) return;
  installed = true;
  let windowStart = 0;
  let logged = 0;
  let skipped = 0;
  process.on('unhandledRejection', (reason) => {
    const now = Date.now();
    if (now - windowStart >= 60_000) {
      if (skipped > 0) log(`LetAgents: ${skipped} more unhandled rejections in the last minute were not logged.`, undefined);
      windowStart = now;
      logged = 0;
      skipped = 0;
    }
    if (logged >= LOGGED_PER_MINUTE) return void skipped++;
    logged++;
    log('LetAgents: a promise failed with nobody to handle it (the app keeps running):', reason);
  });
}
