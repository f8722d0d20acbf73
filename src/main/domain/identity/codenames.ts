// Codenames (data-model.md §5.3): a two-word name derived from a key, used as the
// default name of workers and connections and as the substitute on a name clash.
import { createHash } from 'node:crypto';

/** The fixed word list, indexes 0–99. Its order is part of the contract: never edit it. */
export const WORDS: readonly string[] = Object.freeze(
  (
    'alder amber aspen aster autumn basil bay birch bloom brook canyon cedar cliff cloud clover comet coral cove ' +
    'crane creek cypress dawn delta dune dusk eagle elm ember fern finch fir fjord flint fog fox frost glacier ' +
    'glade grove harbor hawk hazel heath heron holly iris ivy jade juniper lagoon lake larch lark laurel lichen ' +
    'lily linden lotus maple marsh meadow mesa mist moon moss oak ocean orchid otter owl peak pebble pine pond ' +
    'poppy quartz rain raven reed ridge river robin rowan sage shore sky slate snow sparrow spruce stone storm ' +
    'summit thistle tide valley willow wolf wood wren'
  ).split(' '),
);

/** 100 × 100 two-word names. */
export const CODENAME_SPACE = WORDS.length * WORDS.length;

export interface Codename {
  /** Fused and title-cased, e.g. "MapleRidge". */
  displayName: string;
  /** Lower-case form, e.g. "mapleridge". */
  slug: string;
  /** The two lower-case words, e.g. ["maple", "ridge"]. */
  words: readonly [string, string];
}

const titleCase = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/** idx = (uint32_be(sha256(key)[0..3]) + offset) mod 10 000; words WORDS[idx div 100], WORDS[idx mod 100]. */
export function codename(key: string, offset = 0): Codename {
  const digest = createHash('sha256').update(key, 'utf8').digest();
  const idx = (((digest.readUInt32BE(0) + offset) % CODENAME_SPACE) + CODENAME_SPACE) % CODENAME_SPACE;
  const first = WORDS[Math.floor(idx / WORDS.length)];
  const second = WORDS[idx % WORDS.length];
  return { displayName: titleCase(first) + titleCase(second), slug: first + second, words: [first, second] };
}
