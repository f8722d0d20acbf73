// Portable SQL's `?` placeholders as PostgreSQL's `$1, $2, …`. A `?` inside a quoted
// literal ('…', E'…'), a quoted identifier ("…"), a dollar-quoted string ($tag$…$tag$) or a
// comment is text, not a placeholder. Results are cached per SQL text (the SQL is constant).

const cache = new Map<string, string>();
const CACHE_LIMIT = 2_000;

export function toNumberedPlaceholders(sql: string): string {
  let out = cache.get(sql);
  if (out === undefined) {
    out = translate(sql);
    if (cache.size < CACHE_LIMIT) cache.set(sql, out);
  }
  return out;
}

function translate(sql: string): string {
  let out = '';
  let n = 0;
  let i = 0;
  while (i < sql.length) {
    const c = sql[i];
    const next = sql[i + 1];
    let end: number;
    if (c === '?') {
      out += `$${++n}`;
      i++;
      continue;
    } else if (c === "'") {
      const escaped = i > 0 && /[eE]/.test(sql[i - 1]) && !/[\w$]/.test(sql[i - 2] ?? ' ');
      end = quotedEnd(sql, i, "'", escaped);
    } else if (c === '"') {
      end = quotedEnd(sql, i, '"', false);
    } else if (c === '-' && next === '-') {
      const newline = sql.indexOf('\n', i);
      end = newline === -1 ? sql.length : newline;
    } else if (c === '/' && next === '*') {
      end = blockCommentEnd(sql, i);
    } else if (c === '$' && !/[\w$]/.test(sql[i - 1] ?? ' ')) {
      const tag = /^\$([A-Za-z_][\w]*)?\$/.exec(sql.slice(i));
      if (!tag) {
        out += c;
        i++;
        continue;
      }
      const close = sql.indexOf(tag[0], i + tag[0].length);
      end = close === -1 ? sql.length : close + tag[0].length;
    } else {
      out += c;
      i++;
      continue;
    }
    out += sql.slice(i, end);
    i = end;
  }
  return out;
}

/** Index just past the closing quote; a doubled quote (and, in E'…', a backslash) escapes. */
function quotedEnd(sql: string, start: number, quote: string, backslashEscapes: boolean): number {
  let i = start + 1;
  while (i < sql.length) {
    const c = sql[i];
    if (backslashEscapes && c === '\\') i += 2;
    else if (c === quote && sql[i + 1] === quote) i += 2;
    else if (c === quote) return i + 1;
    else i++;
  }
  return sql.length;
}

/** PostgreSQL's block comments nest. */
function blockCommentEnd(sql: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < sql.length) {
    if (sql[i] === '/' && sql[i + 1] === '*') {
      depth++;
      i += 2;
    } else if (sql[i] === '*' && sql[i + 1] === '/') {
      depth--;
      i += 2;
      if (depth === 0) return i;
    } else i++;
  }
  return sql.length;
}
