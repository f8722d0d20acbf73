// Splits a (valid) TOML text into logical lines and recognises table headers, so one table can be
// cut out or replaced as text while comments and formatting elsewhere stay byte for byte.
// Multi-line strings and multi-line arrays/inline tables count as one content block.

export interface TomlHeader {
  path: string[];
  array: boolean;
}

export interface TomlLine {
  start: number;
  /** Offset where the next line starts (after this line's line break). */
  next: number;
  kind: 'blank' | 'comment' | 'content' | 'header';
  header?: TomlHeader;
}

export function tomlLines(text: string): TomlLine[] {
  const lines: TomlLine[] = [];
  let depth = 0;

  // Consumes to the end of the physical line, or further while a multi-line string is open.
  const consume = (from: number): number => {
    let at = from;
    while (at < text.length) {
      const ch = text[at];
      if (ch === '\n') return at + 1;
      if (ch === '#') {
        const newline = text.indexOf('\n', at);
        return newline < 0 ? text.length : newline + 1;
      }
      if (ch === '"' || ch === "'") {
        at = skipString(text, at);
        continue;
      }
      if (ch === '[' || ch === '{') depth++;
      else if (ch === ']' || ch === '}') depth--;
      at++;
    }
    return text.length;
  };

  let at = 0;
  while (at < text.length) {
    const start = at;
    const first = skipSpaces(text, at);
    const ch = text[first];
    if (depth > 0) {
      lines.push({ start, next: (at = consume(first)), kind: 'content' });
    } else if (first >= text.length || ch === '\n' || ch === '\r') {
      lines.push({ start, next: (at = consume(first)), kind: 'blank' });
    } else if (ch === '#') {
      lines.push({ start, next: (at = consume(first)), kind: 'comment' });
    } else if (ch === '[') {
      const parsed = parseHeader(text, first);
      if (!parsed) throw new TypeError(`unreadable table header at offset ${first}`);
      lines.push({ start, next: (at = consume(parsed.end)), kind: 'header', header: parsed.header });
    } else {
      lines.push({ start, next: (at = consume(first)), kind: 'content' });
    }
  }
  return lines;
}

function skipSpaces(text: string, from: number): number {
  let at = from;
  while (text[at] === ' ' || text[at] === '\t') at++;
  return at;
}

/** From an opening quote to just past the closing one (basic, literal, and their multi-line forms). */
function skipString(text: string, from: number): number {
  const quote = text[from];
  const triple = quote.repeat(3);
  if (text.startsWith(triple, from)) {
    let at = from + 3;
    while (at < text.length) {
      if (quote === '"' && text[at] === '\\') {
        at += 2;
        continue;
      }
      if (text.startsWith(triple, at)) {
        at += 3;
        // Up to two quotes right before the delimiter belong to the string.
        for (let extra = 0; extra < 2 && text[at] === quote; extra++) at++;
        return at;
      }
      at++;
    }
    return text.length;
  }
  let at = from + 1;
  while (at < text.length && text[at] !== quote && text[at] !== '\n') at += quote === '"' && text[at] === '\\' ? 2 : 1;
  return at + 1;
}

function parseHeader(text: string, from: number): { header: TomlHeader; end: number } | null {
  const array = text[from + 1] === '[';
  let at = from + (array ? 2 : 1);
  const path: string[] = [];
  for (;;) {
    at = skipSpaces(text, at);
    const ch = text[at];
    if (ch === '"' || ch === "'") {
      const end = skipString(text, at);
      const raw = text.slice(at, end);
      path.push(ch === "'" ? raw.slice(1, -1) : decodeBasic(raw));
      at = end;
    } else {
      const bare = /^[A-Za-z0-9_-]+/.exec(text.slice(at, at + 256));
      if (!bare) return null;
      path.push(bare[0]);
      at += bare[0].length;
    }
    at = skipSpaces(text, at);
    if (text[at] === '.') {
      at++;
      continue;
    }
    const close = array ? ']]' : ']';
    if (!text.startsWith(close, at)) return null;
    return { header: { path, array }, end: at + close.length };
  }
}

function decodeBasic(raw: string): string {
  try {
    return JSON.parse(raw) as string;
  } catch {
    // TOML escapes JSON lacks (\e, \UXXXXXXXX): such a key is not ours anyway.
    return raw.slice(1, -1);
  }
}
