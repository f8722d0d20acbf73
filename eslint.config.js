// Lint, with the import boundaries of architecture.md §2: a file that imports across a
// boundary fails `npm run lint`.
import tseslint from 'typescript-eslint';
import { builtinModules } from 'node:module';

const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
const restrict = (paths, patterns) => ({
  'no-restricted-imports': ['error', { paths: paths.map((name) => ({ name, message: 'Crosses an architecture boundary (architecture.md §2).' })), patterns }],
});

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
    // The stdio helper stays a pure pipe: no native module, no core.
    files: ['src/cli/helper/**/*.ts'],
    rules: restrict(['electron', 'better-sqlite3', '@napi-rs/keyring'], [
      { group: ['**/main/**'], message: 'The stdio helper imports no core or native module.' },
    ]),
  },
);
