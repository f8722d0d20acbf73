import { describe, expect, it } from 'vitest';
import { readTomlEntry, removeTomlEntry, setTomlEntry } from '../../../src/main/setup/tomlConfig';

const FILE = '/home/me/.codex/config.toml';
const ENTRY = { command: 'node', args: ['helper.js', 'mcp'] };
const OUR_TABLE = '[mcp_servers.letagents]\ncommand = "node"\nargs = [ "helper.js", "mcp" ]\n';
const set = (text: string | null) => setTomlEntry(FILE, text, 'mcp_servers', ENTRY);
const remove = (text: string) => removeTomlEntry(FILE, text, 'mcp_servers');

describe('editing the Codex config.toml as text', () => {
  it('appends our table after a blank line and cuts it out again byte for byte', () => {
    const text = '# top comment\nmodel = "o3"\n\n[mcp_servers.other]\ncommand = "x" # why x\n';
    const connected = set(text);
    expect(connected).toBe(text + '\n' + OUR_TABLE);
    expect(remove(connected)).toBe(text);
  });

  it('adds a missing final line break before appending, and does not double a blank line', () => {
    expect(set('model = "o3"')).toBe('model = "o3"\n\n' + OUR_TABLE);
    expect(set('model = "o3"\n\n')).toBe('model = "o3"\n\n' + OUR_TABLE);
    expect(set(null)).toBe(OUR_TABLE);
  });

  it('keeps CRLF line ends', () => {
    const text = 'model = "o3"\r\n';
    expect(set(text)).toBe('model = "o3"\r\n\r\n' + OUR_TABLE.replace(/\n/g, '\r\n'));
  });

  it('cuts out our table and its sub-tables wherever they are, keeping comments that introduce the next table', () => {
    const text = [
      '[mcp_servers.letagents]',
      '# ours',
      'command = "old"',
      '',
      '# the other server',
      '[mcp_servers.other]',
      'command = "x"',
      '',
      "[mcp_servers.'letagents'.env]",
      'A = "1"',
      '',
      '[profiles.fast]',
      'model = "o4-mini"',
      '',
    ].join('\n');
    expect(remove(text)).toBe('# the other server\n[mcp_servers.other]\ncommand = "x"\n\n[profiles.fast]\nmodel = "o4-mini"\n');
  });

  it('is not fooled by header-like lines inside multi-line strings and arrays', () => {
    const text = [
      'instructions = """',
      '[mcp_servers.letagents]',
      'command = "fake"',
      '"""',
      'nested = [',
      '  ["a"],',
      ']',
      '',
      '[mcp_servers.letagents]',
      'command = "old"',
      "note = '''",
      '[not.a.header]',
      "'''",
      '',
      '[tui]',
      'x = 1',
      '',
    ].join('\n');
    const connected = set(text);
    expect(readTomlEntry(FILE, connected, 'mcp_servers')).toEqual({ command: 'node', note: '[not.a.header]\n', args: ['helper.js', 'mcp'] });
    expect(connected.startsWith('instructions = """\n[mcp_servers.letagents]\ncommand = "fake"\n"""\nnested = [\n  ["a"],\n]\n\n')).toBe(true);
    expect(connected.endsWith('\n[tui]\nx = 1\n')).toBe(true);
    expect(remove(connected)).toBe('instructions = """\n[mcp_servers.letagents]\ncommand = "fake"\n"""\nnested = [\n  ["a"],\n]\n\n[tui]\nx = 1\n');
  });

  it('refuses to edit an entry written as an inline table, leaving the text alone', () => {
    const text = '[mcp_servers]\nletagents = { command = "old" }\n';
    const phrase = `${FILE} cannot be edited safely: mcp_servers.letagents is written as an inline table or dotted keys; make it a [mcp_servers.letagents] table or remove it. LetAgents left it unchanged; fix or remove it, then try again.`;
    expect(() => set(text)).toThrow(phrase);
    expect(() => remove(text)).toThrow(phrase);
  });

  it('appends next to servers defined as inline tables in [mcp_servers]', () => {
    const text = '[mcp_servers]\nother = { command = "x" }\n';
    expect(set(text)).toBe(text + '\n' + OUR_TABLE);
  });

  it('refuses to add a table to servers written as one inline table', () => {
    expect(() => set('mcp_servers = { other = { command = "x" } }\n')).toThrow(
      `${FILE} cannot be edited safely: the edited file would not be valid TOML. LetAgents left it unchanged; fix or remove it, then try again.`,
    );
  });

  it('refuses a mcp_servers value that is not a table', () => {
    expect(() => set('mcp_servers = 3\n')).toThrow(`${FILE} cannot be read: "mcp_servers" is not a table.`);
  });

  it('reports the line and column of a syntax error', () => {
    expect(() => set('a = 1\na = 2\n')).toThrow(`${FILE} cannot be read: trying to redefine an already defined table or value at line 2, column 1.`);
  });
});
