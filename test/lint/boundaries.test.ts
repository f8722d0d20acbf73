// The import boundaries of architecture.md §2 are enforced by `npm run lint`.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

// Snippets are linted as files that do not exist: without the type-aware rules, which need a
// real file in the TypeScript project (the boundaries are plain import rules).
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: {
    files: ['**/*.ts', '**/*.tsx'],
    languageOptions: { parserOptions: { projectService: false } },
    rules: { '@typescript-eslint/no-floating-promises': 'off', '@typescript-eslint/no-misused-promises': 'off', '@typescript-eslint/await-thenable': 'off' },
  },
});
async function boundaryErrors(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

describe('lint keeps code on its side of the boundaries', () => {
  it('refuses the renderer importing main-process code or Node', async () => {
    expect(await boundaryErrors('src/renderer/src/Bad.tsx', "import { createCore } from '../../main/core';\nexport const x = createCore;\n")).not.toEqual([]);
    expect(await boundaryErrors('src/renderer/src/Bad.tsx', "import { readFileSync } from 'node:fs';\nexport const x = readFileSync;\n")).not.toEqual([]);
    expect(await boundaryErrors('src/renderer/src/Fine.tsx', "import { contract } from '../../shared/contract';\nexport const x = contract;\n")).toEqual([]);
  });

  it('refuses electron outside src/main/electron and src/preload', async () => {
    expect(await boundaryErrors('src/main/domain/Bad.ts', "import { app } from 'electron';\nexport const x = app;\n")).not.toEqual([]);
    expect(await boundaryErrors('src/main/electron/Fine.ts', "import { app } from 'electron';\nexport const x = app;\n")).toEqual([]);
  });

  it('keeps the domain, MCP, the app API and delivery on the storage port: no engine, no adapter', async () => {
    for (const file of ['src/main/domain/Bad.ts', 'src/main/mcp/Bad.ts', 'src/main/api/methods/Bad.ts', 'src/main/delivery/Bad.ts']) {
      const up = '../'.repeat(file.split('/').length - 3);
      expect(await boundaryErrors(file, "import Database from 'better-sqlite3';\nexport const x = Database;\n"), file).not.toEqual([]);
      expect(await boundaryErrors(file, "import pg from 'pg';\nexport const x = pg;\n"), file).not.toEqual([]);
      expect(await boundaryErrors(file, `import { SqliteStorage } from '${up}store/sqlite/sqliteStorage';\nexport const x = SqliteStorage;\n`), file).not.toEqual([]);
      expect(await boundaryErrors(file, `import { PostgresStorage } from '${up}store/postgres/postgresStorage';\nexport const x = PostgresStorage;\n`), file).not.toEqual([]);
      expect(await boundaryErrors(file, `import type { Queryable } from '${up}store/port';\nimport { getRoomRow } from '${up}store/rooms';\nexport const x = (q: Queryable) => getRoomRow(q, 'r');\n`), file).toEqual([]);
    }
    // Composing the app may pick an adapter; electron stays refused there too.
    expect(await boundaryErrors('src/main/Fine.ts', "import { SqliteStorage } from './store/sqlite/sqliteStorage';\nexport const x = SqliteStorage;\n")).toEqual([]);
    expect(await boundaryErrors('src/main/domain/Bad.ts', "import { app } from 'electron';\nexport const x = app;\n")).not.toEqual([]);
  });

  it('keeps src/shared free of Node and host modules', async () => {
    expect(await boundaryErrors('src/shared/Bad.ts', "import { join } from 'node:path';\nexport const x = join;\n")).not.toEqual([]);
  });

  it('keeps the stdio helper free of the core and native modules', async () => {
    expect(await boundaryErrors('src/cli/helper/Bad.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n")).not.toEqual([]);
    expect(await boundaryErrors('src/cli/helper/Bad.ts', "import { createCore } from '../../main/core';\nexport const x = createCore;\n")).not.toEqual([]);
  });
});
