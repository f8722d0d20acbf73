// The storage port's contract, run against both adapters: this computer's SQLite file and a
// team's PostgreSQL database (a real throwaway cluster). A behaviour the domain relies on
// holds on both, or this file fails.
import { beforeAll, describe, expect, it } from 'vitest';
import type { Storage, TextQuery } from '../../../src/main/store/port';
import { UniqueViolationError, isUniqueViolation } from '../../../src/main/store/storageErrors';
import { addMessage, addRoom, gate, messageNumbers, storageEngines, type Opened } from './storageFixtures';

const { engines, prepare } = storageEngines();

describe.each(engines)('the storage port on %s', (name, open) => {
  let storage: Storage;
  let events: Opened['events'];

  beforeAll(async () => {
    // Starting the cluster belongs to the first test's budget otherwise.
    await prepare(name);
  });

  async function fresh(): Promise<void> {
    ({ storage, events } = await open());
  }

  it('gets, lists and runs with ? placeholders, integers and counts as numbers, booleans as 0/1', async () => {
    await fresh();
    const changes = await storage.write(async (tx) => {
      await addRoom(tx, 'alpha');
      await addRoom(tx, 'beta');
      return (await tx.run("UPDATE rooms SET display_name = display_name || '!' WHERE room_id <> ?", 'nobody')).changes;
    });
    expect(changes).toBe(2);
    const room = await storage.read((q) => q.get<{ room_id: string; next_task_number: number }>('SELECT * FROM rooms WHERE room_id = ?', 'alpha'));
    expect(room).toMatchObject({ room_id: 'alpha', display_name: 'alpha!', next_task_number: 1 });
    expect(await storage.read((q) => q.get('SELECT * FROM rooms WHERE room_id = ?', 'none'))).toBeUndefined();
    const list = await storage.read((q) => q.all<{ room_id: string }>('SELECT room_id FROM rooms ORDER BY room_id DESC'));
    expect(list.map((r) => r.room_id)).toEqual(['beta', 'alpha']);
    const counted = await storage.read((q) =>
      q.get<{ n: number; total: number; yes: number; no: number }>(
        "SELECT COUNT(*) AS n, SUM(next_message_number) AS total, (COUNT(*) = 2) AS yes, (COUNT(*) = 3) AS no FROM rooms WHERE room_id IN (?, ?)",
        'alpha', 'beta',
      ),
    );
    expect(counted).toEqual({ n: 2, total: 2, yes: 1, no: 0 });
  });

  it('treats ? inside quoted text as text, not a placeholder', async () => {
    await fresh();
    const row = await storage.read((q) =>
      q.get<{ a: string; b: string; c: string }>("SELECT 'why?' AS a, CAST(? AS TEXT) AS b, 'it''s ?' AS c /* ? */", 'value'),
    );
    expect(row).toEqual({ a: 'why?', b: 'value', c: "it's ?" });
  });

  it('leaves nothing behind when a write throws, and uses up no number', async () => {
    await fresh();
    await storage.write((tx) => addRoom(tx, 'r'));
    await expect(
      storage.write(async (tx) => {
        await addMessage(tx, 'r', 'lost');
        await addRoom(tx, 'half');
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await storage.read((q) => q.get("SELECT * FROM rooms WHERE room_id = 'half'"))).toBeUndefined();
    expect(await storage.read((q) => messageNumbers(q, 'r'))).toEqual([]);
    expect(await storage.write((tx) => addMessage(tx, 'r', 'kept'))).toBe(1);
  });

  it('publishes events only after commit, runs afterCommit only for a committed write', async () => {
    await fresh();
    await storage.write((tx) => addRoom(tx, 'r'));
    const ran: string[] = [];
    await expect(
      storage.write(async (tx) => {
        await addMessage(tx, 'r', 'lost');
        tx.afterCommit(() => ran.push('rolled back'));
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    let seenInside = -1;
    await storage.write(async (tx) => {
      await addMessage(tx, 'r', 'kept');
      tx.afterCommit(() => ran.push('committed'));
      await Promise.resolve();
      seenInside = events.length;
    });
    expect(seenInside).toBe(0);
    expect(ran).toEqual(['committed']);
    expect(events).toEqual([{ type: 'message.created', place: storage.place, roomId: 'r', number: 1 }]);
  });

  it('says it is writing while a write is queued or uncommitted: not once it committed (its events going out), never for a quiet write', async () => {
    await fresh();
    await storage.write((tx) => addRoom(tx, 'r'));
    const seen: Record<string, boolean> = {};
    const first = storage.write(async (tx) => {
      await addMessage(tx, 'r', 'one');
      tx.afterCommit(() => (seen.afterFirst = storage.writing));
    });
    expect(storage.writing).toBe(true);
    await first;
    // A wake hearing this commit must not wait for the write that brought it.
    expect(seen.afterFirst).toBe(false);
    expect(storage.writing).toBe(false);
    // Another message on its way still counts.
    const hold = gate();
    const held = storage.write(async (tx) => {
      await addMessage(tx, 'r', 'two');
      await hold.opened;
      tx.afterCommit(() => (seen.withNextQueued = storage.writing));
    });
    const next = storage.write((tx) => addMessage(tx, 'r', 'three'));
    hold.open();
    await Promise.all([held, next]);
    expect(seen.withNextQueued).toBe(true);
    // Bookkeeping that brings no messages (receipts, the meter) is quiet.
    const quiet = storage.write(async (tx) => {
      seen.insideQuiet = storage.writing;
      await addRoom(tx, 'q');
    }, { quiet: true });
    expect(storage.writing).toBe(false);
    await quiet;
    expect(seen.insideQuiet).toBe(false);
    expect(await storage.read((q) => messageNumbers(q, 'r'))).toEqual([1, 2, 3]);
  });

  it('a read during an open write does not see the uncommitted message', async () => {
    await fresh();
    await storage.write((tx) => addRoom(tx, 'r'));
    const hold = gate();
    const inserted = gate();
    const writing = storage.write(async (tx) => {
      await addMessage(tx, 'r', 'not yet');
      expect(await messageNumbers(tx, 'r')).toEqual([1]); // the write sees its own row
      inserted.open();
      await hold.opened;
    });
    await inserted.opened;
    expect(await storage.read((q) => messageNumbers(q, 'r'))).toEqual([]);
    hold.open();
    await writing;
    expect(await storage.read((q) => messageNumbers(q, 'r'))).toEqual([1]);
  });

  it('numbers stay dense when many writes are queued at once', async () => {
    await fresh();
    await storage.write((tx) => addRoom(tx, 'r'));
    const numbers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        storage.write(async (tx) => {
          if (i % 7 === 3) throw new Error('refused');
          return addMessage(tx, 'r', `m${i}`);
        }).catch(() => null),
      ),
    );
    const kept = numbers.filter((n): n is number => n !== null);
    expect(kept).toEqual(Array.from({ length: kept.length }, (_, i) => i + 1));
    expect(await storage.read((q) => messageNumbers(q, 'r'))).toEqual(kept);
  });

  it('reports a unique violation in one shape, and a savepoint lets the write go on', async () => {
    await fresh();
    const result = await storage.write(async (tx) => {
      await addRoom(tx, 'r');
      const clash = await tx.savepoint(() => addRoom(tx, 'r')).catch((error: unknown) => error);
      await addRoom(tx, 'after');
      return clash;
    });
    expect(result).toBeInstanceOf(UniqueViolationError);
    expect(isUniqueViolation(result, 'rooms', 'room_id')).toBe(true);
    const rooms = await storage.read((q) => q.all<{ room_id: string }>('SELECT room_id FROM rooms ORDER BY room_id'));
    expect(rooms.map((r) => r.room_id)).toEqual(['after', 'r']);
  });

  it('refuses a query on a write that has ended', async () => {
    await fresh();
    let leaked: Parameters<Parameters<Storage['write']>[0]>[0] | null = null;
    await storage.write(async (tx) => {
      leaked = tx;
    });
    await expect(leaked!.run('DELETE FROM rooms')).rejects.toThrow(/write has ended/);
  });

  it('runs the portable forms of the SQL that differs today (upserts, IS, optional filters, boolean values)', async () => {
    await fresh();
    const result = await storage.write(async (tx) => {
      await addRoom(tx, 'r');
      await addRoom(tx, 's');
      // INSERT OR IGNORE → ON CONFLICT DO NOTHING; an upsert with excluded.
      const inserted = await tx.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING', 'k', 'v1');
      const ignored = await tx.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT DO NOTHING', 'k', 'v2');
      await tx.run('INSERT INTO settings (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value', 'k', 'v3');
      // agent_prompt_kind IS 'auto' → IS NOT DISTINCT FROM (true for 'auto', false for NULL).
      await addMessage(tx, 'r', ' ', { agentPromptKind: 'auto' });
      await addMessage(tx, 'r', 'said');
      const visible = await tx.all<{ number: number }>(
        "SELECT number FROM messages WHERE room_id = ? AND NOT (agent_prompt_kind IS NOT DISTINCT FROM 'auto' AND trim(text) = '') ORDER BY number",
        'r',
      );
      // (? IS NULL OR room_id = ?) → a typed NULL test; a subquery in FROM has an alias.
      const count = (roomId: string | null) =>
        tx.get<{ n: number }>('SELECT COUNT(*) AS n FROM (SELECT 1 FROM rooms WHERE CAST(? AS TEXT) IS NULL OR room_id = ? LIMIT ?) AS t', roomId, roomId, 10);
      // SET x = (a = ?) and CASE WHEN ? → integer forms.
      await tx.run("INSERT INTO client_room_sessions (client_key, room_id, joined_via, last_seen_at) VALUES ('c', 'r', 'x', ?), ('c', 's', 'x', ?)", tx.now, tx.now);
      await tx.run("UPDATE client_room_sessions SET is_current = CASE WHEN room_id = ? THEN 1 ELSE 0 END WHERE client_key = 'c'", 's');
      const current = await tx.all<{ room_id: string; is_current: number }>("SELECT room_id, is_current FROM client_room_sessions ORDER BY room_id");
      const picked = await tx.get<{ v: string }>("SELECT CASE WHEN ? = 1 THEN ? ELSE 'kept' END AS v", 1, 'given');
      return {
        changes: [inserted.changes, ignored.changes],
        setting: await tx.get<{ value: string }>("SELECT value FROM settings WHERE key = 'k'"),
        visible: visible.map((r) => r.number),
        all: (await count(null))!.n,
        one: (await count('s'))!.n,
        current,
        picked: picked!.v,
      };
    });
    expect(result).toEqual({
      changes: [1, 0],
      setting: { value: 'v3' },
      visible: [2],
      all: 2,
      one: 1,
      current: [{ room_id: 'r', is_current: 0 }, { room_id: 's', is_current: 1 }],
      picked: 'given',
    });
  });

  it('searches one room: every term, any case and accent, prefixes, the sender; newest first with snippets', async () => {
    await fresh();
    await storage.write(async (tx) => {
      await addRoom(tx, 'r');
      await addRoom(tx, 'other');
      await addMessage(tx, 'r', 'the login page is broken');
      await addMessage(tx, 'r', 'Login works again at https://example.com/login');
      await addMessage(tx, 'r', 'Café deployment failed', { sender: 'Juniper' });
      await addMessage(tx, 'r', '', { agentPromptKind: 'auto' });
      await addMessage(tx, 'r', 'auto prompt mentions juniper', { agentPromptKind: 'auto' });
      await addMessage(tx, 'other', 'login broken elsewhere');
    });
    const search = (terms: TextQuery['terms'], limit = 20) =>
      storage.read((q) => storage.dialect.searchRoom(q, 'r', { terms, match: 'all', columns: 'text_and_sender' }, limit, 24));
    const numbers = async (terms: TextQuery['terms']) => (await search(terms)).map((m) => m.number);
    expect(await numbers([{ text: 'LOGIN', prefix: false }])).toEqual([2, 1]);
    expect(await numbers([{ text: 'login', prefix: false }, { text: 'broken', prefix: false }])).toEqual([1]);
    expect(await numbers([{ text: 'cafe', prefix: false }])).toEqual([3]);
    expect(await numbers([{ text: 'deploy', prefix: true }])).toEqual([3]);
    expect(await numbers([{ text: 'deploy', prefix: false }])).toEqual([]);
    expect(await numbers([{ text: 'example', prefix: false }])).toEqual([2]);
    // The sender is searched; the prompt-only row (blank text) is never indexed, a prompt with text is.
    expect(await numbers([{ text: 'juniper', prefix: false }])).toEqual([5, 3]);
    // Row 4 (prompt-only, sender Ada) is in no index, not even through its sender.
    expect(await numbers([{ text: 'ada', prefix: false }])).toEqual([5, 2, 1]);
    expect((await search([{ text: 'broken', prefix: false }]))[0].snippet).toBe('the login page is **broken**');
    expect((await search([{ text: 'login', prefix: false }], 1)).map((m) => m.number)).toEqual([2]);
  });

  it('cuts a long snippet around the hit and marks both cuts', async () => {
    await fresh();
    const words = Array.from({ length: 200 }, (_, i) => `w${i}`);
    words[100] = 'needle';
    await storage.write(async (tx) => {
      await addRoom(tx, 'r');
      await addMessage(tx, 'r', words.join(' '));
    });
    const [hit] = await storage.read((q) =>
      storage.dialect.searchRoom(q, 'r', { terms: [{ text: 'needle', prefix: false }], match: 'all', columns: 'text_and_sender' }, 5, 24),
    );
    expect(hit.snippet).toContain('**needle**');
    expect(hit.snippet.startsWith('…') && hit.snippet.endsWith('…')).toBe(true);
    expect(hit.snippet.replace(/…/g, '').trim().split(/\s+/).length).toBeLessThanOrEqual(24);
  });

  it('composes a text-only, any-term match into portable SQL (mentions)', async () => {
    await fresh();
    await storage.write(async (tx) => {
      await addRoom(tx, 'r');
      await addMessage(tx, 'r', 'ping @ada please');
      await addMessage(tx, 'r', 'nothing here', { sender: 'ada' });
      await addMessage(tx, 'r', 'and @grace.hopper too');
    });
    const match = storage.dialect.textMatch('m', {
      terms: [{ text: 'ada', prefix: false }, { text: 'grace.hopper', prefix: false }],
      match: 'any',
      columns: 'text',
    });
    const rows = await storage.read((q) =>
      q.all<{ number: number }>(`SELECT m.number FROM messages m WHERE ${match.sql} AND m.room_id = ? ORDER BY m.number`, ...match.params, 'r'),
    );
    expect(rows.map((r) => r.number)).toEqual([1, 3]);
  });
});
