// Splits a byte stream into newline-terminated lines (the MCP stdio framing), with a
// bound so a peer that never sends a newline cannot grow memory without limit: as frames
// (the bytes, for passing them on) or as lines of text.

export class LineTooLongError extends Error {
  constructor(readonly limit: number) {
    super(`A line exceeded ${limit} bytes.`);
    this.name = 'LineTooLongError';
  }
}

/**
 * Splits a byte stream into frames: each complete line as the bytes it came in, newline
 * included (the helper passes frames through unchanged). A frame that arrived whole in one
 * chunk is a view of that chunk, not a copy.
 */
export class FrameSplitter {
  private pending: Buffer[] = [];
  private pendingBytes = 0;

  constructor(public maxLineBytes: number) {}

  /** Adds a chunk; returns the frames it finished. */
  push(chunk: Buffer): Buffer[] {
    const frames: Buffer[] = [];
    let start = 0;
    for (let nl = chunk.indexOf(10); nl !== -1; nl = chunk.indexOf(10, start)) {
      this.check(nl - start);
      const piece = chunk.subarray(start, nl + 1);
      frames.push(this.pending.length ? Buffer.concat([...this.pending, piece]) : piece);
      this.pending = [];
      this.pendingBytes = 0;
      start = nl + 1;
    }
    if (start < chunk.length) {
      const rest = chunk.subarray(start);
      this.check(rest.length);
      this.pending.push(rest);
      this.pendingBytes += rest.length;
    }
    return frames;
  }

  /** Bytes received after the last complete frame. */
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

/** The frame's line as text, without its newline or a trailing carriage return. */
export function lineOf(frame: Buffer): string {
  const end = frame.length - (frame[frame.length - 1] === 10 ? 1 : 0);
  return frame.toString('utf8', 0, end > 0 && frame[end - 1] === 13 ? end - 1 : end);
}

/** The same splitting with the lines as text (without "\n" or a trailing "\r"), for those that read them. */
export class LineSplitter {
  private readonly frames: FrameSplitter;

  constructor(maxLineBytes: number) {
    this.frames = new FrameSplitter(maxLineBytes);
  }

  get maxLineBytes(): number {
    return this.frames.maxLineBytes;
  }

  set maxLineBytes(bytes: number) {
    this.frames.maxLineBytes = bytes;
  }

  /** Adds a chunk; returns the complete lines it finished. */
  push(chunk: Buffer): string[] {
    return this.frames.push(chunk).map(lineOf);
  }

  /** Bytes received after the last complete line. */
  takeRemainder(): Buffer {
    return this.frames.takeRemainder();
  }
}
