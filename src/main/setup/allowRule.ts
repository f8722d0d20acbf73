// Claude Code's permission rule for LetAgents' tools in its user settings (~/.claude/settings.json,
// `permissions.allow`). Without it Claude Code asks in its terminal before each LetAgents tool
// while the app only shows the agent as Working. Connect adds it when the person agrees, and
// Disconnect takes it out again; every other setting, rule, comment and the file's style stay.
// Checked with Claude Code 2.1.332: a headless run with `mcp__letagents__*` (or `mcp__letagents`)
// in `permissions.allow` calls our tools without `--allowedTools`; without it the call is denied
// ("Claude requested permissions to use mcp__letagents__join_room, but you haven't granted it yet.").
import * as jsonc from 'jsonc-parser';
import { SERVER_NAME } from './agentTools';
import { lineIndent, parseJsonDocument } from './jsonConfig';
import { setupErrors } from './setupErrors';

/** Every tool of our MCP server, in Claude Code's rule syntax. */
export const CLAUDE_ALLOW_RULE = `mcp__${SERVER_NAME}__*`;

const PATH = ['permissions', 'allow'] as const;

/** The `permissions.allow` list (empty when the file or the list is missing); refuses a file it cannot read. */
function allowList(file: string, text: string | null): { root: jsonc.Node | undefined; list: jsonc.Node | undefined } {
  if (text === null) return { root: undefined, list: undefined };
  const root = parseJsonDocument(file, text);
  const permissions = root && jsonc.findNodeAtLocation(root, [PATH[0]]);
  if (permissions && permissions.type !== 'object') throw setupErrors.malformed(file, '"permissions" is not an object');
  const list = permissions && jsonc.findNodeAtLocation(permissions, [PATH[1]]);
  if (list && list.type !== 'array') throw setupErrors.malformed(file, '"permissions.allow" is not a list');
  return { root, list };
}

const ruleIndex = (list: jsonc.Node | undefined) => (list?.children ?? []).findIndex((item) => item.type === 'string' && item.value === CLAUDE_ALLOW_RULE);

/** Whether the settings allow our tools without asking. */
export function hasAllowRule(file: string, text: string | null): boolean {
  return ruleIndex(allowList(file, text).list) >= 0;
}

/** The text with our rule at the end of `permissions.allow` (made when missing); unchanged when it is there. */
export function addAllowRule(file: string, text: string | null): string {
  const current = text ?? '';
  const { root, list } = allowList(file, text);
  if (ruleIndex(list) >= 0) return current;
  if (!root) return `${JSON.stringify({ permissions: { allow: [CLAUDE_ALLOW_RULE] } }, null, 2)}\n`;
  if (!list) return jsonc.applyEdits(current, jsonc.modify(current, [...PATH], [CLAUDE_ALLOW_RULE], { formattingOptions: formatting(current) }));
  return jsonc.applyEdits(current, [appendItem(current, list, JSON.stringify(CLAUDE_ALLOW_RULE))]);
}

/** The text without our rule (the list itself stays, maybe empty); unchanged when it is not there. */
export function removeAllowRule(file: string, text: string): string {
  const { list } = allowList(file, text);
  const index = ruleIndex(list);
  if (!list || index < 0) return text;
  const items = list.children!;
  const item = items[index];
  const end = (node: jsonc.Node) => node.offset + node.length;
  // With the comma before it (or, first in the list, up to the next item): the list reads as before.
  const edit =
    index > 0 ? { offset: end(items[index - 1]), length: end(item) - end(items[index - 1]), content: '' }
    : items.length > 1 ? { offset: item.offset, length: items[1].offset - item.offset, content: '' }
    : { offset: list.offset + 1, length: list.length - 2, content: '' };
  return jsonc.applyEdits(text, [edit]);
}

/** Appends an item in the list's own style: on the same line for a one-line list, else on a line of its own. */
function appendItem(text: string, list: jsonc.Node, item: string): jsonc.Edit {
  const items = list.children ?? [];
  const close = list.offset + list.length - 1;
  if (items.length === 0) return { offset: list.offset + 1, length: close - list.offset - 1, content: item };
  const last = items[items.length - 1];
  const lastEnd = last.offset + last.length;
  if (!text.slice(list.offset, close).includes('\n')) return { offset: lastEnd, length: 0, content: `, ${item}` };
  return { offset: lastEnd, length: 0, content: `,${text.includes('\r\n') ? '\r\n' : '\n'}${lineIndent(text, last.offset)}${item}` };
}

function formatting(text: string): jsonc.FormattingOptions {
  const indent = /^([ \t]+)["}\]]/m.exec(text)?.[1] ?? '  ';
  return { insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}
