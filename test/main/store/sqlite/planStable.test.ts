// Kept statements compiled once (issue 38): SQLite re-compiled a statement on every run when a
// `LIMIT ?` or an ordered query's `col = ?` was bound again; planStable hides those parameters
// from the planner. Same rows, same plan, literals untouched.
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { planStable } from '../../../../src/main/store/sqlite/sqliteQueryable';

describe('planStable', () => {
  it('hides equality and LIMIT/OFFSET parameters from the planner, and nothing else', () => {
    expect(planStable('SELECT number FROM messages WHERE room_id = ? ORDER BY number DESC LIMIT 1')).toBe(
      'SELECT number FROM messages WHERE room_id = +? ORDER BY number DESC LIMIT 1',
    );
    expect(planStable('SELECT * FROM m WHERE room_id=? AND number > ? AND n >= ? AND k <= ? AND x != ? ORDER BY number LIMIT ? OFFSET ?')).toBe(
      'SELECT * FROM m WHERE room_id= +? AND number > ? AND n >= ? AND k <= ? AND x != ? ORDER BY number LIMIT ? + 0 OFFSET ? + 0',
    );
    // A quoted literal is text, not SQL.
    expect(planStable("SELECT 'a = ? LIMIT ?' AS t FROM m WHERE s = 'x''= ?' AND k = ?")).toBe("SELECT 'a = ? LIMIT ?' AS t FROM m WHERE s = 'x''= ?' AND k = +?");
  });

  it('finds the same rows with the same plan', () => {
    const db = new Database(':memory:');
    db.exec(`CREATE TABLE m (room TEXT NOT NULL, n INTEGER NOT NULL, t TEXT COLLATE NOCASE, UNIQUE(room, n));
             CREATE INDEX m_t ON m (t) WHERE t IS NOT NULL;`);
    const insert = db.prepare('INSERT INTO m VALUES (?, ?, ?)');
    for (let n = 1; n <= 30; n++) insert.run(n % 3 === 0 ? 'b' : 'a', n, n % 5 === 0 ? `Word${n % 2}` : null);
    const cases: Array<[string, unknown[]]> = [
      ['SELECT n FROM m WHERE room = ? ORDER BY n DESC LIMIT 1', ['a']],
      ['SELECT room, n, t FROM m WHERE room = ? AND n > ? ORDER BY n LIMIT ?', ['a', 4, 5]],
      ['SELECT n FROM m WHERE room = ? ORDER BY n LIMIT ? OFFSET ?', ['b', 2, 1]],
      // The column's collation still applies (NOCASE), and the partial index is still used.
      ['SELECT n FROM m WHERE t = ? ORDER BY n', ['word1']],
      // Integer affinity still converts a text parameter.
      ['SELECT room FROM m WHERE n = ?', ['7']],
    ];
    for (const [sql, params] of cases) {
      const plan = (text: string) => db.prepare(`EXPLAIN QUERY PLAN ${text}`).all(...params).map((r) => (r as { detail: string }).detail);
      expect(db.prepare(planStable(sql)).all(...params), sql).toEqual(db.prepare(sql).all(...params));
      expect(plan(planStable(sql)), sql).toEqual(plan(sql));
    }
    expect(db.prepare(planStable('SELECT n FROM m WHERE t = ? ORDER BY n')).all('word1')).toEqual([{ n: 5 }, { n: 15 }, { n: 25 }]);
    db.close();
  });
});
