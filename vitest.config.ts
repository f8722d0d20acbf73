import { defineConfig } from 'vitest/config';

// Tests mirror src/. Renderer component tests run in happy-dom; everything else in Node
// against real SQLite files, real processes, a real keychain and a real browser. The MCP
// tool suite and the worker-handle acceptance cases run twice (issue 12): in this
// computer's rooms, and in a team's rooms on a throwaway PostgreSQL (LETAGENTS_TEST_PLACE=team,
// test/support/place.ts) — once per place, not more.
const TEAM_VARIANT = ['test/mcp/tools/**/*.test.ts', 'test/mcp/workerHandles/**/*.test.ts'];
// Through a transaction-mode PgBouncer (issue 29; the listener direct): the cross-machine cases
// and the tool files that write the most kinds of rows (messages, tasks and leases, sessions and
// presence, waits, rooms) — not the whole tool suite a third time, which would add minutes to CI
// for files whose queries these already send through the pooler.
const POOLER_VARIANT = [
  'test/main/teams/twoMachines.test.ts',
  'test/mcp/tools/messages.test.ts',
  'test/mcp/tools/tasks.test.ts',
  'test/mcp/tools/leases.test.ts',
  'test/mcp/tools/sessions.test.ts',
  'test/mcp/tools/wait.test.ts',
  'test/mcp/tools/rooms.test.ts',
  'test/mcp/workerHandles/takeover.test.ts',
];

export default defineConfig({
  test: {
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
    projects: [
      { extends: true, test: { name: 'local', include: ['test/**/*.test.ts', 'test/**/*.test.tsx'] } },
      { extends: true, test: { name: 'team rooms', include: TEAM_VARIANT, env: { LETAGENTS_TEST_PLACE: 'team' } } },
      {
        extends: true,
        test: { name: 'team rooms via PgBouncer', include: POOLER_VARIANT, env: { LETAGENTS_TEST_PLACE: 'team', LETAGENTS_TEST_POOLER: 'pgbouncer' } },
      },
    ],
  },
});
