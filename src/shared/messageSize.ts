// The size limit of a message as people read it. The MCP phrase for agents (M6, "Message
// text must not exceed 262144 UTF-8 bytes.") stays the domain's; people get sizes in KB.

/** The most UTF-8 bytes a message may have (mcp-tools.md, M6). */
export const MAX_MESSAGE_BYTES = 262_144;

const kb = (bytes: number) => Math.ceil(bytes / 1024);

/** "This message is 301 KB; the limit is 256 KB." for a message over the limit, else null. */
export function messageTooLong(text: string): string | null {
  const bytes = new TextEncoder().encode(text).length;
  if (bytes <= MAX_MESSAGE_BYTES) return null;
  return `This message is ${kb(bytes)} KB; the limit is ${kb(MAX_MESSAGE_BYTES)} KB.`;
}
