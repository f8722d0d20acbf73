// The IDE label is kept per connection between calls, and made again when what it is made
// from changes (the MCP client's name arrives with initialize, after the connection opened).
import { describe, expect, it } from 'vitest';
import { ideLabelFor } from '../../../src/main/mcp/clientIdentity';
import { ConnectionState } from '../../../src/main/mcp/connectionState';

describe('a connection\'s IDE label', () => {
  it('follows the client name it is made from, and stays per connection', () => {
    const conn = new ConnectionState({ id: 'c1', transport: 'socket', cwd: null, ideHint: null });
    expect(ideLabelFor(conn)).toEqual({ ideLabel: 'Agent', runtime: 'agent' });
    conn.clientName = 'claude-code';
    expect(ideLabelFor(conn)).toEqual({ ideLabel: 'Claude Code', runtime: 'claude-code' });
    conn.clientName = 'my_tool';
    expect(ideLabelFor(conn).ideLabel).toBe('My Tool');
    const other = new ConnectionState({ id: 'c2', transport: 'socket', cwd: null, ideHint: 'cursor' });
    other.clientName = 'my_tool';
    expect(ideLabelFor(other).ideLabel).toBe('Cursor');
    expect(ideLabelFor(conn).ideLabel).toBe('My Tool');
  });
});
