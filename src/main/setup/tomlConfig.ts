// Adds, updates and removes the [mcp_servers.letagents] table of a Codex config.toml. smol-toml
// parses and validates, but does not keep comments, so the edit is made on the text: only our
// table (and its sub-tables) is replaced or cut out, and the result is parsed again and checked
// to differ from the original in our entry alone before it may be written.
import { parse, stringify, TomlError } from 'smol-toml';
import { SERVER_NAME } from './agentTools';
import { isObject, sameValue } from './sameValue';
import { setupErrors } from './setupErrors';
import { tomlLines, type TomlLine } from './tomlLines';

type Table = Record<string, unknown>;

/** The current value of our entry, or undefined when the file (or entry) is absent. */
export function readTomlEntry(file: string, text: string | null, serversKey: string): unknown {
  if (text === null) return undefined;
  return parseConfig(file, text, serversKey).entry;
}

/** The text with our table holding `fields` (other keys of our table are kept). */
export function setTomlEntry(file: string, text: string | null, serversKey: string, fields: Table): string {
  const current = text ?? '';
  const { doc, servers, entry } = parseConfig(file, current, serversKey);
  const existing = isObject(entry) ? entry : {};
  if (Object.entries(fields).every(([key, value]) => sameValue(existing[key], value))) return current;
  const merged = { ...existing, ...fields };
  const eol = current.includes('\r\n') ? '\r\n' : '\n';
  const table = stringify({ [serversKey]: { [SERVER_NAME]: merged } }).replace(/\n/g, eol);
  const next = entry === undefined ? appendTable(current, table, eol) : rewriteTables(file, current, serversKey, table);
  expectOnlyOurEntryChanged(file, next, serversKey, { ...doc, [serversKey]: { ...servers, [SERVER_NAME]: merged } });
  return next;
}

/** The text without our table and its sub-tables; everything else byte for byte. */
export function removeTomlEntry(file: string, text: string, serversKey: string): string {
  const { doc, servers, entry } = parseConfig(file, text, serversKey);
  if (entry === undefined) return text;
  const next = rewriteTables(file, text, serversKey, null);
  const rest = { ...servers };
  delete rest[SERVER_NAME];
  expectOnlyOurEntryChanged(file, next, serversKey, { ...doc, [serversKey]: rest });
  return next;
}

function parseConfig(file: string, text: string, serversKey: string): { doc: Table; servers: Table; entry: unknown } {
  let doc: Table;
  try {
    doc = parse(text) as Table;
  } catch (error) {
    if (!(error instanceof TomlError)) throw error;
    const problem = error.message.split('\n')[0].replace(/^Invalid TOML document: /, '');
    throw setupErrors.malformed(file, `${problem} at line ${error.line}, column ${error.column}`);
  }
  const servers = doc[serversKey];
  if (servers !== undefined && !isObject(servers)) throw setupErrors.malformed(file, `"${serversKey}" is not a table`);
  const entry = servers?.[SERVER_NAME];
  if (entry !== undefined && !isObject(entry)) throw setupErrors.malformed(file, `"${serversKey}.${SERVER_NAME}" is not a table`);
  return { doc, servers: servers ?? {}, entry };
}

function appendTable(text: string, table: string, eol: string): string {
  if (text.trim() === '') return text + table;
  const ended = text.endsWith('\n') ? text : text + eol;
  // One blank line between the last table and ours, unless there is one already.
  return /\n[ \t]*\r?\n$/.test(ended) ? ended + table : ended + eol + table;
}

/**
 * Cuts out every [serversKey.letagents…] table; with `replacement`, puts it where the first one
 * was. A removed table also takes one blank line next to it, so add-then-remove restores the file.
 */
function rewriteTables(file: string, text: string, serversKey: string, replacement: string | null): string {
  let lines: TomlLine[];
  try {
    lines = tomlLines(text);
  } catch {
    throw setupErrors.unsupported(file, 'a table header could not be read');
  }
  const ours = (line: TomlLine) => line.header?.path[0] === serversKey && line.header.path[1] === SERVER_NAME;
  const headers = lines.flatMap((line, index) => (ours(line) ? [index] : []));
  if (headers.length === 0) {
    throw setupErrors.unsupported(file, `${serversKey}.${SERVER_NAME} is written as an inline table or dotted keys; make it a [${serversKey}.${SERVER_NAME}] table or remove it`);
  }
  const removed = new Set<number>();
  for (const [n, header] of headers.entries()) {
    let last = header;
    for (let i = header + 1; i < lines.length && lines[i].kind !== 'header'; i++) if (lines[i].kind === 'content') last = i;
    for (let i = header; i <= last; i++) removed.add(i);
    if (n === 0 && replacement !== null) continue;
    if (header > 0 && lines[header - 1].kind === 'blank' && !removed.has(header - 1)) removed.add(header - 1);
    else if (last + 1 < lines.length && lines[last + 1].kind === 'blank') removed.add(last + 1);
  }
  return lines
    .map((line, index) => {
      if (index === headers[0] && replacement !== null) return replacement;
      return removed.has(index) ? '' : text.slice(line.start, line.next);
    })
    .join('');
}

/** The written text must parse to exactly the intended document; otherwise nothing is written. */
function expectOnlyOurEntryChanged(file: string, next: string, serversKey: string, expected: Table): void {
  let actual: Table;
  try {
    actual = parse(next) as Table;
  } catch {
    throw setupErrors.unsupported(file, 'the edited file would not be valid TOML');
  }
  if (!sameValue(withoutEmpty(actual, serversKey), withoutEmpty(expected, serversKey))) {
    throw setupErrors.unsupported(file, `editing ${serversKey}.${SERVER_NAME} would also change other settings`);
  }
}

/** An empty servers table and no servers table mean the same to Codex. */
function withoutEmpty(doc: Table, serversKey: string): Table {
  const servers = doc[serversKey];
  if (!isObject(servers) || Object.keys(servers).length > 0) return doc;
  const copy = { ...doc };
  delete copy[serversKey];
  return copy;
}
