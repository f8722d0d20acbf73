// The processes a test run left behind. `npm test` (runTests.mjs) gives every process of the run
// a marker in its environment (LETAGENTS_TEST_RUN=<run id>), which children inherit however they
// are started (pg_ctl's PostgreSQL, PgBouncer under `su`, apps, agent CLIs, the keyring), and
// after vitest has ended, whatever happened to it (a failed file, a timed-out worker killed
// before its afterAll and exit hooks), ends every process still carrying it. Linux (/proc) only.
import { readdirSync, readFileSync } from 'node:fs';

export const RUN_MARKER = 'LETAGENTS_TEST_RUN';

/** The processes (pid and command line) whose environment carries this run's marker. */
export function processesOfRun(runId) {
  const entry = `${RUN_MARKER}=${runId}`;
  const found = [];
  let pids = [];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/.test(name)).map(Number);
  } catch {
    return found;
  }
  for (const pid of pids) {
    if (pid === process.pid) continue;
    try {
      if (!readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').includes(entry)) continue;
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
      found.push({ pid, args });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** Ends them: SIGTERM, then SIGKILL for any still there after `graceMs`. Returns what it found. */
export async function endProcessesOfRun(runId, graceMs = 2_000) {
  const left = processesOfRun(runId);
  const signal = (sig) => {
    for (const { pid } of left) {
      try {
        process.kill(pid, sig);
      } catch {
        // already gone
      }
    }
  };
  signal('SIGTERM');
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && processesOfRun(runId).length > 0) await new Promise((r) => setTimeout(r, 50));
  if (processesOfRun(runId).length > 0) signal('SIGKILL');
  return left;
}
