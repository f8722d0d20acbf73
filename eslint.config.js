// Lint, with the import boundaries of architecture.md §2: a file that imports across a
// boundary fails `npm run lint`.
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';
import importCycles from './scripts/eslint/importCycles.mjs';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const restrict = (paths, patterns) => ({
  'no-restricted-imports': ['error', { paths: paths.map((name) => ({ name, message: 'Crosses an architecture boundary (architecture.md §2).' })), patterns }],
});
// Layers run down (architecture.md §2): a room imports nothing from the rooms above it, type
// imports included. A rule of its own (the typescript-eslint variant), so it adds to the
// engine and host restrictions above instead of replacing them.
const below = (rooms, message) => ({
  '@typescript-eslint/no-restricted-imports': ['error', {
    patterns: [{ group: rooms.flatMap((room) => [`**/${room}`, `**/${room}/**`]), message: `${message} (architecture.md §2: layers run down).` }],
  }],
});
// src/main/app.ts by the relative names its rooms would use (a bare **/app would also match src/shared/model/app).
const APP = ['../app', '../../app', '../../../app', '../../../../app', '**/main/app'];

export default tseslint.config(
  { ignores: ['node_modules/**', 'out/**', 'dist/**', 'test-results/**', 'bench/results/**'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-explicit-any': 'error',
    },
  },
  {
    // Only src/main/electron and src/preload may import electron.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    ignores: ['src/main/electron/**', 'src/preload/**', 'src/main/index.ts'],
    rules: restrict(['electron'], []),
  },
  {
    // The renderer imports only src/shared (and browser libraries).
    files: ['src/renderer/**/*.ts', 'src/renderer/**/*.tsx'],
    rules: restrict(['electron', ...nodeBuiltins], [
      { group: ['**/main/**', '**/preload/**', '**/cli/**'], message: 'The renderer imports only src/shared.' },
    ]),
  },
  {
    // src/shared is pure TypeScript: no Node, DOM-host or Electron module.
    files: ['src/shared/**/*.ts'],
    rules: restrict(['electron', ...nodeBuiltins], [
      { group: ['**/main/**', '**/renderer/**', '**/preload/**', '**/cli/**', 'react', 'react-dom'], message: 'src/shared imports no host module.' },
    ]),
  },
  {
    // The domain and what serves it (MCP, the app API, delivery's watchers) see only the
    // storage port and the portable query modules of src/main/store, never an engine or its
    // adapter: every room runs on both (issue 12).
    files: ['src/main/domain/**/*.ts', 'src/main/mcp/**/*.ts', 'src/main/api/**/*.ts', 'src/main/delivery/**/*.ts'],
    rules: restrict(['electron', 'better-sqlite3', 'pg'], [
      { group: ['**/store/sqlite', '**/store/sqlite/**', '**/store/postgres', '**/store/postgres/**'], message: 'The domain sees only store/port and the portable query modules (issue 12).' },
    ]),
  },
  {
    // A promise nobody awaits loses its error and its ordering: the core awaits every one
    // (or says `void` on purpose). Type-aware, so limited to the main process.
    files: ['src/main/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
    },
  },
  {
    // No import circles, type-only imports included.
    files: ['src/**/*.ts', 'src/**/*.tsx'],
    plugins: { project: importCycles },
    rules: { 'project/no-import-cycle': 'error' },
  },
  {
    // The store is the bottom of the main process: it reports its own errors, and what it
    // shares with the helper lives in src/shared-node.
    files: ['src/main/store/**/*.ts'],
    rules: below(['domain', 'cli', 'mcp', 'api', 'delivery', 'agents', 'gateway', 'diagnostics', 'teams'], 'The store imports no room above it'),
  },
  {
    files: ['src/main/diagnostics/**/*.ts'],
    rules: below(['cli', 'api'], "The doctor's checks import no command and no app API"),
  },
  {
    // Delivery is a service below the MCP layer: the MCP layer and the app API both use it.
    files: ['src/main/delivery/**/*.ts'],
    rules: below(['mcp', 'api', 'agents', 'gateway', 'cli'], 'Delivery imports nothing from the MCP layer or above'),
  },
  {
    // The app API sees the parts of the app it uses (api/appParts.ts), not the module that builds it.
    files: ['src/main/api/**/*.ts'],
    rules: {
      '@typescript-eslint/no-restricted-imports': ['error', { patterns: [{ group: APP, message: 'The app API depends on AppParts, not on app.ts (architecture.md §2: layers run down).' }] }],
    },
  },
  {
    // Node code both the app and the helper use: no core, no command, no native module.
    files: ['src/shared-node/**/*.ts'],
    rules: restrict(['electron', 'better-sqlite3', 'pg', '@napi-rs/keyring'], [
      { group: ['**/main/**', '**/cli/**', '**/renderer/**', '**/preload/**'], message: 'src/shared-node sits below the app and the helper.' },
    ]),
  },
  {
    // The stdio helper stays a pure pipe: no native module, no core.
    files: ['src/cli/helper/**/*.ts'],
    rules: restrict(['electron', 'better-sqlite3', '@napi-rs/keyring'], [
      { group: ['**/main/**'], message: 'The stdio helper imports no core or native module.' },
    ]),
  },
);
