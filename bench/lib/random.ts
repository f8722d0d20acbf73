// Seeded randomness for the data sets: the same seed gives the same rooms, words and
// messages on every machine, so runs compare like with like.

/** mulberry32: a small, fast 32-bit PRNG; good enough for shaping test data. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  'ba', 'ce', 'di', 'fo', 'gu', 'ha', 'je', 'ki', 'lo', 'mu', 'na', 'pe', 'ri', 'so', 'tu', 'va', 'we', 'xi', 'yo', 'zu',
  'bra', 'cle', 'dri', 'flo', 'gru', 'pla', 'sne', 'tri', 'sto', 'kru', 'an', 'el', 'in', 'or', 'us', 'ent', 'ast', 'ium',
];

/**
 * A vocabulary of distinct pseudo-words, most frequent first, with a Zipf (s = 1)
 * sampler: like prose, a few words are everywhere and most are rare, so searches
 * range from very common to very selective terms.
 */
export class Vocabulary {
  readonly words: string[];
  private readonly cumulative: Float64Array;

  constructor(size: number, random: () => number) {
    const seen = new Set<string>();
    while (seen.size < size) {
      const parts = 2 + Math.floor(random() * 3);
      let word = '';
      for (let i = 0; i < parts; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
      seen.add(word);
    }
    this.words = [...seen];
    this.cumulative = new Float64Array(size);
    let total = 0;
    for (let rank = 0; rank < size; rank++) this.cumulative[rank] = total += 1 / (rank + 1);
    for (let rank = 0; rank < size; rank++) this.cumulative[rank] /= total;
  }

  /** A word drawn by Zipf frequency. */
  pick(random: () => number): string {
    const r = random();
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.cumulative[mid] < r) lo = mid + 1;
      else hi = mid;
    }
    return this.words[lo];
  }

  /** A sentence of `min`–`max` words. */
  sentence(random: () => number, min: number, max: number): string {
    const count = min + Math.floor(random() * (max - min + 1));
    const out: string[] = [];
    for (let i = 0; i < count; i++) out.push(this.pick(random));
    return out.join(' ');
  }
}
