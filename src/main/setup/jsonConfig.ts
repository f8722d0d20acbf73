// Adds, updates and removes one MCP server entry in a JSON (or JSON-with-comments) config file
// by editing the text: every other key, its order, the comments and the file's indentation stay.
import * as jsonc from 'jsonc-parser';
import { SERVER_NAME } from './agentTools';
import { sameValue } from './sameValue';
import { setupErrors } from './setupErrors';

interface Style {
  indent: string;
  eol: string;
}

interface Parsed {
  root: jsonc.Node | undefined;
  servers: jsonc.Node | undefined;
  entry: jsonc.Node | undefined;
}

/** The current value of our entry, or undefined when the file (or entry) is absent. */
export function readJsonEntry(file: string, text: string | null, serversKey: string): unknown {
  if (text === null) return undefined;
  const { entry } = parseConfig(file, text, serversKey);
  return entry ? jsonc.getNodeValue(entry) : undefined;
}

/** The text with our entry holding `fields` (other keys of our entry are kept). */
export function setJsonEntry(file: string, text: string | null, serversKey: string, fields: Record<string, unknown>): string {
  let current = text ?? '';
  const style = detectStyle(current);
  // One change at a time, re-parsing in between, so every offset is fresh.
  for (let step = 0; step < 16; step++) {
    const { root, servers, entry } = parseConfig(file, current, serversKey);
    let edit: jsonc.Edit | null;
    if (!root) edit = newDocument(current, { [serversKey]: { [SERVER_NAME]: fields } }, style);
    else if (!servers) edit = insertProperty(current, root, serversKey, { [SERVER_NAME]: fields }, style);
    else if (!entry) edit = insertProperty(current, servers, SERVER_NAME, fields, style);
    else if (entry.type !== 'object') edit = replaceValue(current, entry, fields, style);
    else edit = nextFieldEdit(current, entry, fields, style);
    if (!edit) return current;
    current = jsonc.applyEdits(current, [edit]);
  }
  // Only a file with repeated keys could keep our fields from settling.
  throw setupErrors.unsupported(file, `the "${SERVER_NAME}" entry could not be updated (is a key repeated?)`);
}

/** The text without our entry; the servers object itself stays, emptied to `{}` if nothing else is in it. */
export function removeJsonEntry(file: string, text: string, serversKey: string): string {
  const { entry, servers } = parseConfig(file, text, serversKey);
  if (!entry || !servers?.children) return text;
  const property = entry.parent!;
  const index = servers.children.indexOf(property);
  const edits: jsonc.Edit[] = [];
  let start = property.offset;
  let end = property.offset + property.length;
  const following = nextToken(text, end);
  if (text[following] === ',') end = following + 1;
  else if (index > 0) {
    const previous = servers.children[index - 1];
    const comma = nextToken(text, previous.offset + previous.length);
    if (text[comma] === ',') edits.push({ offset: comma, length: 1, content: '' });
  }
  // Take the whole line when the entry had it to itself.
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  const newline = text.indexOf('\n', end);
  const nextLine = newline < 0 ? text.length : newline + 1;
  if (/^[ \t]*$/.test(text.slice(lineStart, start)) && /^[ \t\r]*\n?$/.test(text.slice(end, nextLine))) {
    start = lineStart;
    end = nextLine;
  }
  edits.push({ offset: start, length: end - start, content: '' });
  return collapseEmptyObject(jsonc.applyEdits(text, edits), [serversKey]);
}

/** The parsed document (undefined when it holds nothing yet); refuses one that is not a JSON object, naming where. */
export function parseJsonDocument(file: string, text: string): jsonc.Node | undefined {
  const errors: jsonc.ParseError[] = [];
  const root = jsonc.parseTree(text, errors, { allowTrailingComma: true, disallowComments: false, allowEmptyContent: true });
  if (errors.length > 0) {
    const { line, column } = position(text, errors[0].offset);
    throw setupErrors.malformed(file, `${describeError(errors[0].error)} at line ${line}, column ${column}`);
  }
  if (root && root.type !== 'object') throw setupErrors.malformed(file, 'the top level is not a JSON object');
  return root;
}

function parseConfig(file: string, text: string, serversKey: string): Parsed {
  const root = parseJsonDocument(file, text);
  const servers = root && jsonc.findNodeAtLocation(root, [serversKey]);
  if (servers && servers.type !== 'object') throw setupErrors.malformed(file, `"${serversKey}" is not an object`);
  const entry = servers && jsonc.findNodeAtLocation(servers, [SERVER_NAME]);
  return { root, servers, entry };
}

function nextFieldEdit(text: string, entry: jsonc.Node, fields: Record<string, unknown>, style: Style): jsonc.Edit | null {
  for (const [key, value] of Object.entries(fields)) {
    const existing = jsonc.findNodeAtLocation(entry, [key]);
    if (!existing) return insertProperty(text, entry, key, value, style);
    if (!sameValue(jsonc.getNodeValue(existing), value)) return replaceValue(text, existing, value, style);
  }
  return null;
}

function newDocument(text: string, value: unknown, style: Style): jsonc.Edit {
  // Only whitespace or comments so far: keep them and put the object after.
  const separator = text.length === 0 || /\n\s*$/.test(text) ? '' : style.eol;
  return { offset: text.length, length: 0, content: separator + render(value, '', style) + style.eol };
}

function insertProperty(text: string, object: jsonc.Node, key: string, value: unknown, style: Style): jsonc.Edit {
  const properties = object.children ?? [];
  const close = object.offset + object.length - 1;
  if (properties.length === 0) {
    const parentIndent = lineIndent(text, object.offset);
    const childIndent = parentIndent + style.indent;
    const from = lastNonSpace(text, object.offset + 1, close);
    const content = style.eol + childIndent + property(key, value, childIndent, style) + style.eol + parentIndent;
    return { offset: from, length: close - from, content };
  }
  const last = properties[properties.length - 1];
  const lastEnd = last.offset + last.length;
  if (!text.slice(object.offset, close).includes('\n')) {
    // A one-line object stays on one line.
    return { offset: lastEnd, length: 0, content: `, ${JSON.stringify(key)}: ${JSON.stringify(value)}` };
  }
  const indent = lineIndent(text, last.offset);
  const comma = nextToken(text, lastEnd);
  const hasComma = text[comma] === ',';
  // A comment after the last entry on its line stays with that entry: we go on the next line.
  const at = endOfTrailingComments(text, hasComma ? comma + 1 : lastEnd);
  const entryText = style.eol + indent + property(key, value, indent, style);
  if (hasComma) return { offset: at, length: 0, content: entryText };
  return { offset: lastEnd, length: at - lastEnd, content: ',' + text.slice(lastEnd, at) + entryText };
}

function replaceValue(text: string, node: jsonc.Node, value: unknown, style: Style): jsonc.Edit {
  const indent = lineIndent(text, node.parent?.offset ?? node.offset);
  return { offset: node.offset, length: node.length, content: render(value, indent, style) };
}

function collapseEmptyObject(text: string, path: jsonc.JSONPath): string {
  const root = jsonc.parseTree(text, [], { allowTrailingComma: true, allowEmptyContent: true });
  const node = root && jsonc.findNodeAtLocation(root, path);
  if (!node || node.type !== 'object' || (node.children?.length ?? 0) > 0) return text;
  const inner = text.slice(node.offset + 1, node.offset + node.length - 1);
  if (inner === '' || inner.trim() !== '') return text;
  return jsonc.applyEdits(text, [{ offset: node.offset + 1, length: inner.length, content: '' }]);
}

function property(key: string, value: unknown, indent: string, style: Style): string {
  return `${JSON.stringify(key)}: ${render(value, indent, style)}`;
}

function render(value: unknown, indent: string, style: Style): string {
  return JSON.stringify(value, null, style.indent).split('\n').join(style.eol + indent);
}

function detectStyle(text: string): Style {
  const eol = text.includes('\r\n') ? '\r\n' : '\n';
  const first = /^([ \t]+)["}\]/]/m.exec(text);
  const indent = first ? (first[1].startsWith('\t') ? '\t' : first[1]) : '  ';
  return { indent, eol };
}

/** Offset of the next token that is not whitespace or a comment. */
function nextToken(text: string, from: number): number {
  const scanner = jsonc.createScanner(text, true);
  scanner.setPosition(from);
  scanner.scan();
  return scanner.getTokenOffset();
}

/** Past spaces and comments that end on this line; stops before the line break (or at anything else). */
function endOfTrailingComments(text: string, from: number): number {
  let at = from;
  for (;;) {
    while (text[at] === ' ' || text[at] === '\t') at++;
    if (text.startsWith('//', at)) return endOfLine(text, at);
    if (text.startsWith('/*', at)) {
      const close = text.indexOf('*/', at + 2);
      if (close < 0 || text.slice(at, close).includes('\n')) return from;
      at = close + 2;
      continue;
    }
    return at >= text.length || text[at] === '\n' || text[at] === '\r' ? at : from;
  }
}

function endOfLine(text: string, from: number): number {
  const newline = text.indexOf('\n', from);
  if (newline < 0) return text.length;
  return text[newline - 1] === '\r' && newline - 1 >= from ? newline - 1 : newline;
}

/** The indentation of the line `offset` is on. */
export function lineIndent(text: string, offset: number): string {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  return /^[ \t]*/.exec(text.slice(lineStart))![0];
}

function lastNonSpace(text: string, from: number, to: number): number {
  let at = to;
  while (at > from && /\s/.test(text[at - 1])) at--;
  return at;
}

function position(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, offset).split('\n');
  return { line: before.length, column: before[before.length - 1].length + 1 };
}

/** "CloseBraceExpected" -> "close brace expected". */
function describeError(code: jsonc.ParseErrorCode): string {
  return jsonc.printParseErrorCode(code).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase();
}
