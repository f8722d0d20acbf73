// The import boundaries of architecture.md §2 are enforced by `npm run lint`.
import { describe, expect, it } from 'vitest';
import { ESLint } from 'eslint';

const eslint = new ESLint({ cwd: process.cwd() });
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

  it('keeps src/shared free of Node and host modules', async () => {
    expect(await boundaryErrors('src/shared/Bad.ts', "import { join } from 'node:path';\nexport const x = join;\n")).not.toEqual([]);
  });

  it('keeps the stdio helper free of the core and native modules', async () => {
    expect(await boundaryErrors('src/cli/helper/Bad.ts', "import Database from 'better-sqlite3';\nexport const x = Database;\n")).not.toEqual([]);
    expect(await boundaryErrors('src/cli/helper/Bad.ts', "import { createCore } from '../../main/core';\nexport const x = createCore;\n")).not.toEqual([]);
  });
});
