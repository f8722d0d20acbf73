// Search snippets split into plain and highlighted parts. They are cut from the message
// text here, token by token the way FTS5's unicode61 tokenizer reads it (letters and
// digits, case and diacritics folded), because the store's marked-up snippet uses "**"
// as its markers and Markdown bold in a message would read as false hits.
import type { SnippetPart } from '../../../shared/model/messages';

const TOKEN = /[\p{L}\p{N}]+/gu;
export const SNIPPET_TOKENS = 24;
// Tokens shown before the first hit, so it reads in context.
const LEAD_TOKENS = 6;

interface Term {
  token: string;
  prefix: boolean;
}

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/** The query's terms as folded tokens; `term*` (2+ characters) matches a prefix, as search does. */
export function queryTerms(query: string): Term[] {
  const terms: Term[] = [];
  for (const raw of query.split(/\s+/).filter((t) => t !== '')) {
    const stem = raw.replace(/\*+$/, '');
    const prefix = stem !== raw && [...stem].length >= 2;
    const tokens = fold(prefix ? stem : raw).match(TOKEN) ?? [];
    tokens.forEach((token, i) => terms.push({ token, prefix: prefix && i === tokens.length - 1 }));
  }
  return terms;
}

const isHit = (token: string, terms: readonly Term[]) => {
  const folded = fold(token);
  return terms.some((t) => (t.prefix ? folded.startsWith(t.token) : folded === t.token));
};

/** About `size` tokens of `text` around its first hit, with the hits marked. */
export function highlightSnippet(text: string, query: string, size: number = SNIPPET_TOKENS): SnippetPart[] {
  const terms = queryTerms(query);
  const tokens = [...text.matchAll(TOKEN)].map((m) => ({ start: m.index, end: m.index + m[0].length, hit: isHit(m[0], terms) }));
  if (tokens.length === 0) return [{ text: [...text].slice(0, 200).join(''), hit: false }];
  const firstHit = Math.max(0, tokens.findIndex((t) => t.hit));
  const from = Math.max(0, Math.min(firstHit - LEAD_TOKENS, tokens.length - size));
  const to = Math.min(tokens.length, from + size);
  const parts: SnippetPart[] = [];
  const push = (piece: string, hit: boolean) => {
    if (piece === '') return;
    const last = parts.at(-1);
    if (last && last.hit === hit) last.text += piece;
    else parts.push({ text: piece, hit });
  };
  if (from > 0) push('…', false);
  let cursor = from === 0 ? 0 : tokens[from].start;
  for (let i = from; i < to; i++) {
    const token = tokens[i];
    push(text.slice(cursor, token.start), false);
    push(text.slice(token.start, token.end), token.hit);
    cursor = token.end;
  }
  push(to === tokens.length ? text.slice(cursor) : '…', false);
  return parts;
}
