import { defineConfig } from 'vitest/config';

// Tests mirror src/. Renderer component tests run in happy-dom; everything else in Node
// against real SQLite files, real processes, a real keychain and a real browser. The MCP
// tool suite and the worker-handle acceptance cases run in this computer's rooms and in a
// team's rooms on a throwaway PostgreSQL (issue 12; LETAGENTS_TEST_PLACE=team, test/support/place.ts).
const TEAM_VARIANT = ['test/mcp/tools/**/*.test.ts', 'test/mcp/workerHandles/**/*.test.ts'];
// And once more through a transaction-mode PgBouncer (issue 29; the listener direct): the whole
// team variant, and the cross-machine cases whose queries two apps share (twoMachines, teamRowAttacks, managedInTeam).
// Two files stay out for CI's time (about 50 s): badInput refuses bad arguments before any query,
// and waitProgress times a wait's progress notices (its queries are wait.test's, which runs here).
const POOLER_VARIANT = [...TEAM_VARIANT, 'test/main/teams/twoMachines.test.ts', 'test/main/teams/teamRowAttacks.test.ts', 'test/main/teams/managedInTeam.test.ts'];
const NOT_THROUGH_POOLER = ['test/mcp/tools/badInput.test.ts', 'test/mcp/tools/waitProgress.test.ts'];
// One PostgreSQL cluster (and PgBouncer) for all files of a team project, started once per run.
const TEAM_CLUSTER = ['test/support/teamClusterSetup.ts'];

export default defineConfig({
  test: {
    environment: 'node',
    // Every file ends by failing if it left a PostgreSQL cluster or PgBouncer of its own running (and stops it).
    setupFiles: ['test/support/liveServersCheck.ts'],
    // A cap, never a measure (speed is the bench's): about forty tests drive real CLI turns,
    // git, PostgreSQL or Chromium through many steps, and on a loaded 2-core machine a run of
    // them took 15–21 s of the 30 s this was (stop 45's loaded full run); a hang still fails.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // expect.poll waits for a state to come (a page, a real process, a database): its own 1 s
    // default is shorter than waitUntil's 5 s and the e2e pages' 10 s, and a loaded 2-core CI
    // machine takes longer than that to move a page. A poll that holds at once still ends at once.
    expect: { poll: { timeout: 10_000 } },
    pool: 'forks',
    // Two files at once: most tests wait on real processes (CLIs, helpers, PostgreSQL, Chromium),
    // so one worker on a 2-core runner left half the machine idle and CI past 40 minutes.
    maxWorkers: 2,
    // In CI a failed test runs once more: with two files at once, a Chromium drag or a process
    // tree's exit has been seen to miss its time once. Locally a failure stays a failure.
    retry: process.env.CI ? 1 : 0,
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      { extends: true, test: { name: 'local', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] } },
      { extends: true, test: { name: 'team rooms', include: TEAM_VARIANT, globalSetup: TEAM_CLUSTER, env: { LETAGENTS_TEST_PLACE: 'team' } } },
      {
        extends: true,
        test: {
          name: 'team rooms via PgBouncer',
          include: POOLER_VARIANT,
          exclude: NOT_THROUGH_POOLER,
          globalSetup: TEAM_CLUSTER,
          env: { LETAGENTS_TEST_PLACE: 'team', LETAGENTS_TEST_POOLER: 'pgbouncer' },
        },
      },
    ],
  },
});
