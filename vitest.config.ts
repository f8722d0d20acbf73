import { defineConfig } from 'vitest/config';

// Tests mirror src/. Renderer component tests run in happy-dom; everything else in Node
// against real SQLite files, real processes, a real keychain and a real browser. The MCP
// tool suite and the worker-handle acceptance cases run twice (issue 12): in this
// computer's rooms, and in a team's rooms on a throwaway PostgreSQL (LETAGENTS_TEST_PLACE=team,
// test/support/place.ts) — once per place, not more.
const TEAM_VARIANT = ['test/mcp/tools/**/*.test.ts', 'test/mcp/workerHandles/**/*.test.ts'];

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
    ],
  },
});
