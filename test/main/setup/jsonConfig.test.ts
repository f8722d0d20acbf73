import { describe, expect, it } from 'vitest';
import { readJsonEntry, removeJsonEntry, setJsonEntry } from '../../../src/main/setup/jsonConfig';

const FILE = '/home/me/.cursor/mcp.json';
const ENTRY = { command: 'node', args: ['helper.js', 'mcp'] };
const set = (text: string | null, key = 'mcpServers') => setJsonEntry(FILE, text, key, ENTRY);
const remove = (text: string, key = 'mcpServers') => removeJsonEntry(FILE, text, key);

describe('editing a JSON config as text', () => {
  it('follows the file: tab indentation and CRLF line ends', () => {
    const text = '{\r\n\t"servers": {\r\n\t\t"other": {\r\n\t\t\t"command": "x"\r\n\t\t}\r\n\t}\r\n}\r\n';
    const connected = set(text, 'servers');
    expect(connected).toBe(
      '{\r\n\t"servers": {\r\n\t\t"other": {\r\n\t\t\t"command": "x"\r\n\t\t},\r\n\t\t"letagents": {\r\n\t\t\t"command": "node",\r\n\t\t\t"args": [\r\n\t\t\t\t"helper.js",\r\n\t\t\t\t"mcp"\r\n\t\t\t]\r\n\t\t}\r\n\t}\r\n}\r\n',
    );
    expect(remove(connected, 'servers')).toBe(text);
  });

  it('adds the servers object at the end of the top level when it is missing, after a trailing comment', () => {
    const text = '{\n  "theme": "dark" // mine\n}\n';
    expect(set(text)).toBe(
      '{\n  "theme": "dark", // mine\n  "mcpServers": {\n    "letagents": {\n      "command": "node",\n      "args": [\n        "helper.js",\n        "mcp"\n      ]\n    }\n  }\n}\n',
    );
  });

  it('keeps a trailing comma the person wrote and puts our entry after it', () => {
    const text = '{\n  "mcpServers": {\n    "other": {}, // c\n  },\n}\n';
    const connected = set(text);
    expect(connected).toContain('"other": {}, // c\n    "letagents": {');
    expect(readJsonEntry(FILE, connected, 'mcpServers')).toEqual(ENTRY);
  });

  it('fills an empty servers object and empties it again on disconnect', () => {
    const text = '{\n  "mcpServers": {}\n}\n';
    const connected = set(text);
    expect(connected).toBe('{\n  "mcpServers": {\n    "letagents": {\n      "command": "node",\n      "args": [\n        "helper.js",\n        "mcp"\n      ]\n    }\n  }\n}\n');
    expect(remove(connected)).toBe(text);
  });

  it('keeps a comment-only file and writes the object after it', () => {
    expect(set('// nothing here yet\n')).toBe('// nothing here yet\n{\n  "mcpServers": {\n    "letagents": {\n      "command": "node",\n      "args": [\n        "helper.js",\n        "mcp"\n      ]\n    }\n  }\n}\n');
    expect(set('')).toBe(set(null));
  });

  it('keeps a one-line file on one line', () => {
    expect(set('{"mcpServers": {"other": {"command": "x"}}}')).toBe(
      '{"mcpServers": {"other": {"command": "x"}, "letagents": {"command":"node","args":["helper.js","mcp"]}}}',
    );
  });

  it("writes Claude Code's top-level (user scope) entry and leaves per-project entries alone", () => {
    const text = '{\n  "projects": {\n    "/repo": {\n      "mcpServers": {\n        "letagents": {"command": "old"}\n      }\n    }\n  }\n}\n';
    const connected = set(text);
    expect(readJsonEntry(FILE, connected, 'mcpServers')).toEqual(ENTRY);
    expect(connected).toContain('"letagents": {"command": "old"}');
    expect(remove(connected)).toBe('{\n  "projects": {\n    "/repo": {\n      "mcpServers": {\n        "letagents": {"command": "old"}\n      }\n    }\n  },\n  "mcpServers": {}\n}\n');
  });

  it('removes our entry from the middle of the servers, keeping the neighbours and their comments', () => {
    const text = '{\n  "mcpServers": {\n    "a": {}, // first\n    "letagents": {"command": "node"},\n    // before b\n    "b": {}\n  }\n}\n';
    expect(remove(text)).toBe('{\n  "mcpServers": {\n    "a": {}, // first\n    // before b\n    "b": {}\n  }\n}\n');
  });

  it('replaces an entry that is not an object', () => {
    expect(readJsonEntry(FILE, set('{"mcpServers": {"letagents": null}}'), 'mcpServers')).toEqual(ENTRY);
  });

  it('refuses a servers value that is not an object, and a top level that is not an object', () => {
    expect(() => set('{"mcpServers": []}')).toThrow(`${FILE} cannot be read: "mcpServers" is not an object.`);
    expect(() => set('[1]')).toThrow(`${FILE} cannot be read: the top level is not a JSON object.`);
    expect(() => set('{"a": 1,, }')).toThrow(`${FILE} cannot be read: property name expected at line 1, column 9.`);
  });
});
