// "Did you mean …?" and which near names count as a slip of the keyboard (join_room refuses those once).
import { describe, expect, it } from 'vitest';
import { isLikelyTypo, nearMatches } from '../../src/shared/nearMatch';

describe('near matches', () => {
  it('lists the known names within a typo, nearest first, ignoring case', () => {
    expect(nearMatches('design-revew', ['design-review', 'design-reviews', 'ops'])).toEqual(['design-review', 'design-reviews']);
    expect(nearMatches('Design-Review', ['design-review'])).toEqual([]);
  });

  it('takes a slip in a long word for a typo, but not names that differ in a number or a short word', () => {
    expect(isLikelyTypo('design-revew', 'design-review')).toBe(true);
    expect(isLikelyTypo('desgin-review', 'design-review')).toBe(true);
    expect(isLikelyTypo('case-3', 'case-1')).toBe(false);
    expect(isLikelyTypo('case-13-s', 'case-13-r')).toBe(false);
    expect(isLikelyTypo('api-v2', 'api-v1')).toBe(false);
    expect(isLikelyTypo('room-12', 'room-13')).toBe(false);
    expect(isLikelyTypo('frontend-team', 'backend-team')).toBe(false);
  });
});
