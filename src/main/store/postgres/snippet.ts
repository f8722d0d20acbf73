// Search terms and snippets for PostgreSQL, tokenized the way SQLite's unicode61 tokenizer
// does (runs of letters and digits; diacritics and case ignored), so a team room finds and
// highlights what a local room would. ts_headline is not used: its parser keeps hosts, URLs,
// e-mail addresses and hyphenated words as single tokens, so it would not highlight the
// words the index matched, and it does not mark where the text was cut.
import type { SearchTerm, TextQuery } from '../port';

const WORD = /[\p{L}\p{N}\p{Co}]+/gu;

/** Case- and diacritic-insensitive form of a word, for comparing. */
export function foldWord(word: string): string {
  return word.normalize('NFD').replace(/\p{M}+/gu, '').toLowerCase();
}

export function wordsOf(text: string): string[] {
  return text.match(WORD) ?? [];
}

/**
 * The to_tsquery text of `query` for the 'letagents' configuration: each term a phrase of
 * its words (`<->`), `:*` on a prefix's last word, `:A` (the text column) when the sender is
 * left out. Words hold only letters and digits, so quoting them needs no escaping. Null
 * when no term has a word (nothing can match).
 */
export function tsQueryText(query: TextQuery): string | null {
  const weight = query.columns === 'text' ? 'A' : '';
  const phrases = query.terms
    .map((term) => {
      const words = wordsOf(term.text);
      return words
        .map((w, i) => `'${w}'` + (term.prefix && i === words.length - 1 ? `:*${weight}` : weight ? `:${weight}` : ''))
        .join(' <-> ');
    })
    .filter((p) => p !== '');
  if (phrases.length === 0) return null;
  return phrases.map((p) => `(${p})`).join(query.match === 'all' ? ' & ' : ' | ');
}

/**
 * About `maxWords` words of `text` around the hits of `terms`: each hit as `**word**`, `…`
 * where the text was cut (FTS5's snippet contract).
 */
export function snippetOf(text: string, terms: readonly SearchTerm[], maxWords: number): string {
  const words = [...text.matchAll(WORD)].map((m) => ({ start: m.index, end: m.index + m[0].length, folded: foldWord(m[0]) }));
  const exact = new Set<string>();
  const prefixes: string[] = [];
  for (const term of terms) {
    const folded = wordsOf(term.text).map(foldWord);
    folded.forEach((w, i) => (term.prefix && i === folded.length - 1 ? prefixes.push(w) : exact.add(w)));
  }
  const isHit = words.map((w) => exact.has(w.folded) || prefixes.some((p) => w.folded.startsWith(p)));
  const size = Math.max(1, maxWords);
  let from = 0;
  if (words.length > size) {
    // The window holding the most hits, its first hit placed a quarter in, like FTS5's.
    let best = -1;
    for (let h = 0; h < words.length; h++) {
      if (!isHit[h]) continue;
      const start = Math.min(Math.max(0, h - Math.floor(size / 4)), words.length - size);
      const hits = isHit.slice(start, start + size).filter(Boolean).length;
      if (hits > best) [best, from] = [hits, start];
    }
  }
  const to = Math.min(words.length, from + size);
  if (words.length === 0) return text;
  let out = from === 0 ? text.slice(0, words[0].start) : '…';
  for (let i = from; i < to; i++) {
    const w = words[i];
    const gap = i === from ? '' : text.slice(words[i - 1].end, w.start);
    const word = text.slice(w.start, w.end);
    out += gap + (isHit[i] ? `**${word}**` : word);
  }
  out += to === words.length ? text.slice(words[words.length - 1].end) : '…';
  return out;
}
