// JSON-RPC frames on the agent socket (issue 38): the helper passes them through as the bytes
// they are, never parsing and writing them again. To route a frame from the app it needs only
// its id and whether it answers, asks or tells, so the app writes "jsonrpc" and "id" first
// and the helper reads them from the frame's first bytes; a frame laid out any other way (an
// app of another version) is parsed whole, so the layout is a speed-up, never a requirement.
// Pure functions, no imports: the helper and the gateway both use them.

type JsonRpcId = string | number;

/** What the helper needs of a frame: its id (null for a notification) and its kind. */
export interface FrameHead {
  readonly id: JsonRpcId | null;
  readonly kind: 'response' | 'request' | 'notification';
}

/**
 * One message as a frame: its JSON with "jsonrpc" and "id" first, and the newline. Same
 * message, same JSON otherwise (the SDK's serializeMessage writes the keys in whatever order
 * the message was built, e.g. a response's id last, after a result of any size).
 */
export function frameOf(message: { readonly jsonrpc: string; readonly id?: JsonRpcId | null }): string {
  const { jsonrpc, id, ...rest } = message;
  return `${JSON.stringify(id === undefined ? { jsonrpc, ...rest } : { jsonrpc, id, ...rest })}\n`;
}

/** How far into a frame its head is looked for. */
const HEAD_BYTES = 200;
// An integer id or a plain printable-ASCII string id (no escapes), then the key that says what the frame is.
const WITH_ID = /^\{"jsonrpc":"2\.0","id":(-?\d{1,15}|"[\x20\x21\x23-\x5b\x5d-\x7e]*"),"(result|error|method)":/;
const NOTIFICATION = /^\{"jsonrpc":"2\.0","method":/;

/** The head of a frame laid out as frameOf writes it, read from its first bytes; null for any other layout. */
export function peekFrameHead(frame: Buffer): FrameHead | null {
  const start = frame.toString('latin1', 0, Math.min(frame.length, HEAD_BYTES));
  const match = WITH_ID.exec(start);
  if (match) {
    const token = match[1];
    const id = token.startsWith('"') ? token.slice(1, -1) : Number(token);
    return { id, kind: match[2] === 'method' ? 'request' : 'response' };
  }
  return NOTIFICATION.test(start) ? { id: null, kind: 'notification' } : null;
}
