import { describe, expect, it } from 'vitest';
import { searchMessages, toTextQuery, type SearchResult } from '../../../../src/main/domain/messages/search';
import { fts5Expression } from '../../../../src/main/store/sqlite/sqliteDialect';
import { agent, makeStore, namedRoom, post, snapshot } from './testStore';

async function roomWithMessages(texts: string[]) {
  const t = makeStore();
  const room = await namedRoom(t);
  for (const text of texts) await post(t, room, text);
  return { t, room };
}

const hitIds = (r: SearchResult) => r.matches.map((m) => m.id);

describe('searching a room', () => {
  it('finds messages with every term, newest first', async () => {
    const { t, room } = await roomWithMessages([
      'the login page is broken',
      'login works again',
      'broken build on main',
      'Login is broken on Safari',
    ]);
    expect(hitIds(await searchMessages(t.q, room, 'login broken'))).toEqual(['msg_4', 'msg_1']);
    expect(hitIds(await searchMessages(t.q, room, 'login'))).toEqual(['msg_4', 'msg_2', 'msg_1']);
  });

  it('matches a prefix for term* with at least two characters before the star', async () => {
    const { t, room } = await roomWithMessages(['deployment failed', 'deploy now', 'de facto', 'd']);
    expect(hitIds(await searchMessages(t.q, room, 'deploy*'))).toEqual(['msg_2', 'msg_1']);
    expect(hitIds(await searchMessages(t.q, room, 'de*'))).toEqual(['msg_3', 'msg_2', 'msg_1']);
    // One character before the star is not a prefix: it searches the word itself.
    expect(hitIds(await searchMessages(t.q, room, 'd*'))).toEqual(['msg_4']);
    expect(hitIds(await searchMessages(t.q, room, 'deploy'))).toEqual(['msg_2']);
  });

  it('ignores case and diacritics, and searches the sender too', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await post(t, room, 'Café opens at nine');
    await post(t, room, 'status update', { author: agent('Juniper') });
    expect(hitIds(await searchMessages(t.q, room, 'CAFE'))).toEqual(['msg_1']);
    expect(hitIds(await searchMessages(t.q, room, 'juniper'))).toEqual(['msg_2']);
  });

  it('treats FTS5 syntax as plain words', async () => {
    const { t, room } = await roomWithMessages(['alpha OR beta', 'alpha only', 'NEAR the end', 'say "hi" there', 'col:value here']);
    for (const query of ['alpha OR beta', 'NOT alpha', 'alpha AND', '"hi"', 'NEAR(alpha beta)', 'col:value', '(alpha', '^alpha', 'alpha -beta', '*', '"']) {
      const outcome = await searchMessages(t.q, room, query).then(() => 'found', (error: Error) => error.message);
      expect(outcome, query).not.toMatch(/fts5|syntax/i);
    }
    expect(hitIds(await searchMessages(t.q, room, 'alpha OR beta'))).toEqual(['msg_1']);
    expect(hitIds(await searchMessages(t.q, room, 'NEAR'))).toEqual(['msg_3']);
    expect(hitIds(await searchMessages(t.q, room, '"hi"'))).toEqual(['msg_4']);
    expect(hitIds(await searchMessages(t.q, room, 'col:value'))).toEqual(['msg_5']);
    expect(toTextQuery('ab* x').terms).toEqual([{ text: 'ab', prefix: true }, { text: 'x', prefix: false }]);
    // On SQLite each term is one quoted FTS5 string: a quote inside is doubled, never an operator.
    expect(fts5Expression(toTextQuery('a"b c*'))).toBe('"a""b" "c*"');
    expect(fts5Expression(toTextQuery('ab* x'))).toBe('"ab"* "x"');
  });

  it('never finds prompt-only rows, and stays inside the room', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const other = await namedRoom(t, 'other');
    await post(t, room, '', { author: agent('Juniper'), agentPromptKind: 'auto' });
    await post(t, room, 'auto prompt with words', { author: agent('Juniper'), agentPromptKind: 'auto' });
    await post(t, other, 'Juniper words elsewhere');
    expect(hitIds(await searchMessages(t.q, room, 'juniper'))).toEqual(['msg_2']);
    expect(hitIds(await searchMessages(t.q, room, 'elsewhere'))).toEqual([]);
  });

  it('returns ids, thread and reply fields, and a highlighted snippet', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await post(t, room, 'root');
    await post(t, room, 'the quick brown fox', { threadParentId: 'msg_1' });
    await post(t, room, 'quoting the fox', { replyTo: 'msg_2' });
    const { matches } = await searchMessages(t.q, room, 'fox');
    expect(matches).toEqual([
      {
        id: 'msg_3', kind: 'message', source: 'human', sender: 'Ada', timestamp: expect.any(String),
        thread_root_id: null, reply_to_id: 'msg_2', snippet: 'quoting the **fox**',
      },
      {
        id: 'msg_2', kind: 'message', source: 'human', sender: 'Ada', timestamp: expect.any(String),
        thread_root_id: 'msg_1', reply_to_id: 'msg_1', snippet: 'the quick brown **fox**',
      },
    ]);
  });

  it('cuts long snippets to about 24 tokens around the hit, marking the cuts', async () => {
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
    words[100] = 'needle';
    const { t, room } = await roomWithMessages([words.join(' ')]);
    const [hit] = (await searchMessages(t.q, room, 'needle')).matches;
    expect(hit.snippet).toContain('**needle**');
    expect(hit.snippet.startsWith('…')).toBe(true);
    expect(hit.snippet.endsWith('…')).toBe(true);
    expect(hit.snippet.replace(/…/g, '').trim().split(/\s+/).length).toBeLessThanOrEqual(24);
  });

  it('limits results to 1–100 (default 20) and reports has_more', async () => {
    const { t, room } = await roomWithMessages(Array.from({ length: 25 }, (_, i) => `item ${i}`));
    const first = await searchMessages(t.q, room, 'item');
    expect(first.matches).toHaveLength(20);
    expect(first.has_more).toBe(true);
    expect(first.matches[0].id).toBe('msg_25');
    expect((await searchMessages(t.q, room, 'item', 25)).has_more).toBe(false);
    expect((await searchMessages(t.q, room, 'item', 0)).matches).toHaveLength(1);
    expect((await searchMessages(t.q, room, 'item', 1000)).matches).toHaveLength(25);
  });

  it('refuses a query without terms (M8) or with more than 16 (M9), changing nothing', async () => {
    const { t, room } = await roomWithMessages(['anything']);
    const before = snapshot(t.db);
    await expect(searchMessages(t.q, room, '   ')).rejects.toThrow('query must contain at least one search term.');
    await expect(searchMessages(t.q, room, '!!! ---')).rejects.toThrow('query must contain at least one search term.');
    const seventeen = Array.from({ length: 17 }, (_, i) => `t${i}`).join(' ');
    await expect(searchMessages(t.q, room, seventeen)).rejects.toThrow('query must not have more than 16 terms.');
    await expect(searchMessages(t.q, room, seventeen.split(' ').slice(0, 16).join('  \n '))).resolves.toBeDefined();
    expect(snapshot(t.db)).toBe(before);
  });
});
