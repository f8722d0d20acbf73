import { defineConfig } from 'vitest/config';

// Tests mirror src/. Renderer component tests run in happy-dom; everything else in Node
// against real SQLite files, real processes, a real keychain and a real browser.
export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    environment: 'node',
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    reporters: ['default', 'json'],
    outputFile: { json: 'test-results/vitest.json' },
  },
});
