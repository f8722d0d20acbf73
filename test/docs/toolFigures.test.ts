// The tool count and tool-list budgets the docs quote are the registry's
// (src/main/mcp/tools/index.ts): a new tool or a changed budget fails here until the docs say so.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { allTools, CORE_TOOLS, TOOL_LIST_BUDGETS } from '../../src/main/mcp/tools';

const root = path.resolve(__dirname, '../..');
/** A docs file with its line breaks as spaces, so a sentence can wrap anywhere. */
const prose = (file: string) => readFileSync(path.join(root, file), 'utf8').replace(/\s+/g, ' ');
const chars = (n: number) => n.toLocaleString('en');

describe('the docs quote the tool registry', () => {
  it('give the number of tools of each profile and their budgets', () => {
    const text = prose('docs/agents-and-mcp-tools.md');
    const say = 'docs/agents-and-mcp-tools.md (Tool profiles) quotes another figure than src/main/mcp/tools/index.ts: update the sentence';
    expect(text, say).toContain(`\`full\` (default) lists all ${allTools.length} tools`);
    expect(text, say).toContain(`(${CORE_TOOLS.length} tools)`);
    expect(text, say).toContain(`full ≤ ${chars(TOOL_LIST_BUDGETS.full)} characters, core ≤ ${chars(TOOL_LIST_BUDGETS.core)}`);
  });

  it("give B12's targets as the budgets", () => {
    const text = readFileSync(path.join(root, 'docs/performance.md'), 'utf8');
    const say = "docs/performance.md's B12 rows quote another budget than TOOL_LIST_BUDGETS: update them (npm run bench -- B12)";
    expect(text, say).toMatch(new RegExp(`\\| B12 full \\|[^\\n]*\\| tools/list ≤ ${chars(TOOL_LIST_BUDGETS.full)} chars \\|`));
    expect(text, say).toMatch(new RegExp(`\\| B12 core \\|[^\\n]*\\| tools/list ≤ ${chars(TOOL_LIST_BUDGETS.core)} chars \\|`));
  });
});
