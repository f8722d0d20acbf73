import { describe, expect, it } from 'vitest';
import { toNumberedPlaceholders } from '../../../../src/main/store/postgres/placeholders';

describe('turning ? placeholders into $n', () => {
  it('numbers every placeholder in order', () => {
    expect(toNumberedPlaceholders('SELECT * FROM t WHERE a = ? AND b IN (?, ?) LIMIT ?')).toBe(
      'SELECT * FROM t WHERE a = $1 AND b IN ($2, $3) LIMIT $4',
    );
  });

  it('leaves ? inside literals, quoted identifiers, dollar quotes and comments alone', () => {
    expect(toNumberedPlaceholders("SELECT 'a?b', 'it''s ?', ? FROM \"we?ird\" -- why?\nWHERE x = ?")).toBe(
      "SELECT 'a?b', 'it''s ?', $1 FROM \"we?ird\" -- why?\nWHERE x = $2",
    );
    expect(toNumberedPlaceholders('SELECT /* a ? /* nested ? */ still ? */ ?, $$ ? $$, $tag$ ? $tag$, ?')).toBe(
      'SELECT /* a ? /* nested ? */ still ? */ $1, $$ ? $$, $tag$ ? $tag$, $2',
    );
    expect(toNumberedPlaceholders("SELECT E'back\\'slash ?', ?")).toBe("SELECT E'back\\'slash ?', $1");
  });

  it('does not take a column named like e for an E-string, or $1 text for a dollar quote', () => {
    expect(toNumberedPlaceholders("SELECT type'x?' , ?")).toBe("SELECT type'x?' , $1");
    expect(toNumberedPlaceholders('SELECT a$b, ?')).toBe('SELECT a$b, $1');
  });
});
