import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CODENAME_SPACE, WORDS, codename } from '../../../../src/main/domain/identity/codenames';

// The list as printed in data-model.md §5.3, typed out again so an edit to WORDS fails here.
const SPEC_WORDS = `alder amber aspen aster autumn basil bay birch bloom brook canyon cedar cliff cloud clover comet coral cove
crane creek cypress dawn delta dune dusk eagle elm ember fern finch fir fjord flint fog fox frost glacier glade grove harbor
hawk hazel heath heron holly iris ivy jade juniper lagoon lake larch lark laurel lichen lily linden lotus maple marsh meadow
mesa mist moon moss oak ocean orchid otter owl peak pebble pine pond poppy quartz rain raven reed ridge river robin rowan sage
shore sky slate snow sparrow spruce stone storm summit thistle tide valley willow wolf wood wren`.split(/\s+/);

/** The spec's formula, computed independently of the implementation. */
function expected(key: string, offset = 0): string {
  const idx = (createHash('sha256').update(key).digest().readUInt32BE(0) + offset) % 10_000;
  const word = (w: string) => w[0].toUpperCase() + w.slice(1);
  return word(SPEC_WORDS[Math.floor(idx / 100)]) + word(SPEC_WORDS[idx % 100]);
}

describe('codenames', () => {
  it('uses exactly the hundred words of the spec, in order', () => {
    expect(WORDS).toEqual(SPEC_WORDS);
    expect(WORDS).toHaveLength(100);
    expect(CODENAME_SPACE).toBe(10_000);
  });

  it('matches known vectors computed outside this codebase', () => {
    expect(codename('worker_0123456789abcdef0123456789abcdef').displayName).toBe('PoppySparrow');
    expect(codename('conn:c1').displayName).toBe('MeadowBloom');
    expect(codename('ada/worker-abc:1').displayName).toBe('OceanSlate');
    expect(codename('').displayName).toBe('ElmCanyon');
  });

  it('derives the two words from the first four bytes of sha256(key)', () => {
    for (const key of ['conn:c7', 'worker_ffffffffffffffffffffffffffffffff', 'ada/worker-1234:2', 'Jünïper ☃']) {
      expect(codename(key).displayName).toBe(expected(key));
    }
  });

  it('adds the offset before wrapping around the 10 000 names', () => {
    expect(codename('conn:c1', 1).displayName).toBe('MeadowBrook');
    expect(codename('conn:c1', 9_999).displayName).toBe('MeadowBirch');
    expect(codename('conn:c1', 10_000).displayName).toBe(codename('conn:c1').displayName);
    expect(codename('conn:c9', 123).displayName).toBe(expected('conn:c9', 123));
  });

  it('fuses title-cased words for the name, lower-cases them for the slug and gives the two words', () => {
    const name = codename('conn:c1');
    expect(name).toEqual({ displayName: 'MeadowBloom', slug: 'meadowbloom', words: ['meadow', 'bloom'] });
  });

  it('gives the same name for the same key every time', () => {
    expect(codename('conn:c42')).toEqual(codename('conn:c42'));
  });
});
