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
const BOUNDARY_RULES = ['no-restricted-imports', '@typescript-eslint/no-restricted-imports'];
async function errorsOf(rules: readonly string[], filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath });
  return result.messages.filter((m) => m.ruleId !== null && rules.includes(m.ruleId)).map((m) => m.message);
}
const boundaryErrors = (filePath: string, code: string) => errorsOf(BOUNDARY_RULES, filePath, code);
/** Import circles: the snippet stands in for `filePath`; the files it imports are read from disk. */
const cycleErrors = (filePath: string, code: string) => errorsOf(['project/no-import-cycle'], filePath, code);

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

  it('refuses an import circle, type-only imports included', async () => {
    // store/messageQueries.ts imports the port: the port importing it back closes a circle.
    const circle = await cycleErrors('src/main/store/port.ts', "import type { AttachmentRow } from './messageQueries';\nexport type X = AttachmentRow;\n");
    expect(circle).toEqual([expect.stringContaining('src/main/store/port.ts > src/main/store/messageQueries.ts > src/main/store/port.ts')]);
    // A longer one: delivery's settings reached back from a file delivery/index.ts imports.
    expect(await cycleErrors('src/main/delivery/deliverySettings.ts', "import type { DeliveryServices } from './index';\nexport type X = DeliveryServices;\n")).not.toEqual([]);
    expect(await cycleErrors('src/main/store/port.ts', "import type { EmittedEvent } from '../events/types';\nexport type X = EmittedEvent;\n")).toEqual([]);
  });

  it('refuses imports up the layers, type-only imports included', async () => {
    // The store reports its own errors and shares nothing with src/cli.
    expect(await boundaryErrors('src/main/store/Bad.ts', "import { DomainError } from '../domain/errors';\nexport const x = DomainError;\n")).not.toEqual([]);
    expect(await boundaryErrors('src/main/store/postgres/Bad.ts', "import type { DomainError } from '../../domain/errors';\nexport type X = DomainError;\n")).not.toEqual([]);
    expect(await boundaryErrors('src/main/store/Bad.ts', "import { makeFolders } from '../../cli/helper/folders';\nexport const x = makeFolders;\n")).not.toEqual([]);
    expect(await boundaryErrors('src/main/diagnostics/Bad.ts', "import { attemptConnect } from '../../cli/helper/appLink';\nexport const x = attemptConnect;\n")).not.toEqual([]);
    // Delivery sits below the MCP layer.
    expect(await boundaryErrors('src/main/delivery/Bad.ts', "import type { McpServices } from '../mcp/services';\nexport type X = McpServices;\n")).not.toEqual([]);
    // The app API depends on AppParts, not on the app module.
    expect(await boundaryErrors('src/main/api/models/Bad.ts', "import type { App } from '../../app';\nexport type X = App;\n")).not.toEqual([]);
    expect(await boundaryErrors('src/main/api/Bad.ts', "import type { App } from '../app';\nexport type X = App;\n")).not.toEqual([]);
    // What they use instead is below them.
    expect(await boundaryErrors('src/main/store/Fine.ts', "import { makeFolders } from '../../shared-node/folders';\nexport const x = makeFolders;\n")).toEqual([]);
    expect(await boundaryErrors('src/main/delivery/Fine.ts', "import { placeKey } from '../domain/placeKeys';\nexport const x = placeKey;\n")).toEqual([]);
    expect(await boundaryErrors('src/main/api/methods/Fine.ts', "import type { Settings } from '../../../shared/model/app';\nimport type { AppParts } from '../appParts';\nexport type X = [Settings, AppParts];\n")).toEqual([]);
  });

  it('keeps src/shared-node below the app and the helper', async () => {
    expect(await boundaryErrors('src/shared-node/Bad.ts', "import { createCore } from '../main/core';\nexport const x = createCore;\n")).not.toEqual([]);
    expect(await boundaryErrors('src/shared-node/Bad.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n")).not.toEqual([]);
  });
});
