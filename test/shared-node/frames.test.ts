// Frames on the agent socket (issue 38, frames.ts): the app writes "jsonrpc" and "id" first,
// so the helper routes a frame from its first bytes; any other layout is left to a full parse.
import { describe, expect, it } from 'vitest';
import { frameOf, peekFrameHead } from '../../src/shared-node/frames';

const head = (text: string) => peekFrameHead(Buffer.from(text));

describe('agent socket frames', () => {
  it('are written id first, the rest as the message has it, one per line', () => {
    expect(frameOf({ result: { content: [] }, jsonrpc: '2.0', id: 7 } as never)).toBe('{"jsonrpc":"2.0","id":7,"result":{"content":[]}}\n');
    expect(frameOf({ method: 'notifications/message', params: { data: 'woke' }, jsonrpc: '2.0' } as never)).toBe(
      '{"jsonrpc":"2.0","method":"notifications/message","params":{"data":"woke"}}\n',
    );
    const message = { jsonrpc: '2.0', id: 'a"b', error: { code: -32000, message: 'no' } };
    expect(JSON.parse(frameOf(message))).toEqual(message);
  });

  it('say from their first bytes what they are, for the layout the app writes', () => {
    expect(head(frameOf({ jsonrpc: '2.0', id: 12, result: { text: 'x'.repeat(10_000) } } as never))).toEqual({ id: 12, kind: 'response' });
    expect(head('{"jsonrpc":"2.0","id":"req-7","error":{}}\n')).toEqual({ id: 'req-7', kind: 'response' });
    expect(head('{"jsonrpc":"2.0","id":-3,"method":"roots/list"}\n')).toEqual({ id: -3, kind: 'request' });
    expect(head('{"jsonrpc":"2.0","method":"notifications/progress","params":{}}\n')).toEqual({ id: null, kind: 'notification' });
  });

  it('leave anything else to a full parse: other layouts, escaped or non-ASCII ids, fractions', () => {
    expect(head('{"result":{},"jsonrpc":"2.0","id":2}\n')).toBeNull();
    expect(head('{ "jsonrpc": "2.0", "id": 2, "result": {} }\n')).toBeNull();
    expect(head('{"jsonrpc":"2.0","id":"a\\"b","result":{}}\n')).toBeNull();
    expect(head('{"jsonrpc":"2.0","id":"é","result":{}}\n')).toBeNull();
    expect(head('{"jsonrpc":"2.0","id":1.5,"result":{}}\n')).toBeNull();
    expect(head('not JSON\n')).toBeNull();
  });
});
