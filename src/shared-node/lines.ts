// Splits a byte stream into newline-terminated lines (the MCP stdio framing), with a
// bound so a peer that never sends a newline cannot grow memory without limit.

export class LineTooLongError extends Error {
  constructor(readonly limit: number) {
    super(`A line exceeded ${limit} bytes.`);
    this.name = 'LineTooLongError';
  }
}

export class LineSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(public maxLineBytes: number) {}

  /** Adds a chunk; returns the complete lines it finished (without "\n" or a trailing "\r"). */
  push(chunk: Buffer): string[] {
    const lines: string[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      const piece = chunk.subarray(start, nl);
      this.check(piece.length);
      const whole = this.pending.length ? Buffer.concat([...this.pending, piece]) : piece;
      this.pending = [];
      this.pendingBytes = 0;
      const text = whole.toString('utf8');
      lines.push(text.endsWith('\r') ? text.slice(0, -1) : text);
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.check(rest.length);
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    }
    return lines;
  }

  /** Bytes received after the last complete line. */
  takeRemainder(): Buffer {
    const rest = Buffer.concat(this.pending);
    this.pending = [];
    this.pendingBytes = 0;
    return rest;
  }

  private check(more: number): void {
    if (this.pendingBytes + more > this.maxLineBytes) {
      this.pending = [];
      this.pendingBytes = 0;
      throw new LineTooLongError(this.maxLineBytes);
    }
  }
}
