// The app's search of every room, on a team's real PostgreSQL with many rooms (issue 32 item 7's
// leftover): one statement per team instead of one a room, with the same answer as before. The
// old way is still the app's own: the room list in its order, then the one-room search of each
// room (rooms.list, then messages.search per room); both must give the same groups, hits, order
// and "more" flags for a table of queries and per-room limits. A room row a teammate forged past
// 2^53 is left out with its hits and said once in the log, and fails nobody's search.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runPostgresSuites } from '../../support/postgres';
import { TEAM, type InProcessMachine } from '../../support/teamMachines';
import { machineApi as ok, twoMachinesPerTest, type TwoMachines } from './twoMachinesSetup';

const ROOMS = 80;
const BEYOND_2_53 = '9007199254740993';
const WORDS = ['report', 'zebra', 'quarterly', 'deploy', 'café', 'build', 'green', 'schema', 'review', 'alpha-beta', 'x@y.com', 'reporting'];
const SENDERS: Array<[string, 'human' | 'agent' | 'system']> = [['Alder', 'agent'], ['Birch', 'agent'], ['ada@vm', 'human'], ['', 'system']];

/** The same pseudo-random rooms every run. */
function seeded(seed: number) {
  return () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
}

interface Group { roomId: string; place: string; hits: unknown[]; hasMore: boolean }

/** Many rooms straight into the team database: pinned, archived, empty ones, and messages of varied words, senders and times. */
async function seedRooms(machines: TwoMachines): Promise<void> {
  const random = seeded(35);
  const at = (minute: number) => new Date(Date.UTC(2026, 11, 1) + minute * 60_000).toISOString();
  const rooms: unknown[][] = [[], [], [], [], []];
  const messages: unknown[][] = [[], [], [], [], [], [], [], []];
  for (let r = 0; r < ROOMS; r++) {
    const roomId = `room-${String(r).padStart(2, '0')}`;
    // Some rooms empty, one with far more matches than a room's page.
    const count = r % 9 === 0 ? 0 : r === 7 ? 60 : 1 + Math.floor(random() * 14);
    for (let n = 1; n <= count; n++) {
      const words = Array.from({ length: 3 + Math.floor(random() * 6) }, () => WORDS[Math.floor(random() * WORDS.length)]);
      if (r === 7) words.push('report');
      const [sender, source] = SENDERS[Math.floor(random() * SENDERS.length)];
      messages[0].push(roomId);
      messages[1].push(n);
      messages[2].push(source === 'system' ? 'event' : 'message');
      messages[3].push(source);
      messages[4].push(sender);
      messages[5].push(words.join(' '));
      messages[6].push(n > 1 && random() < 0.3 ? 1 : null);
      messages[7].push(at(Math.floor(random() * 50_000)));
    }
    rooms[0].push(roomId);
    rooms[1].push(at(r));
    rooms[2].push(r % 11 === 3 ? at(r + 1) : null);
    rooms[3].push(r % 13 === 5 ? at(r + 2) : null);
    rooms[4].push(count + 1);
  }
  await machines.teamRows(
    `INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at, archived_at, pinned_at, next_message_number)
     SELECT id, 'named', id, t, t, archived, pinned, next FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::bigint[]) AS x(id, t, archived, pinned, next)`,
    ...rooms,
  );
  await machines.teamRows(
    `INSERT INTO messages (room_id, number, kind, source, sender, text, thread_root_number, created_at)
     SELECT * FROM unnest($1::text[], $2::bigint[], $3::text[], $4::text[], $5::text[], $6::text[], $7::bigint[], $8::text[])`,
    ...messages,
  );
}

/** The search of every room the old way, one room at a time: the room list's order, then each room's own search. */
async function searchRoomByRoom(machine: InProcessMachine, query: string, perRoom: number | undefined): Promise<Group[]> {
  const rooms = (await ok<Array<{ id: string; place: string }>>(machine, 'rooms.list', { includeArchived: true })).filter((r) => r.place === TEAM);
  const groups: Group[] = [];
  for (const room of rooms) {
    const found = await ok<{ hits: unknown[]; hasMore: boolean }>(machine, 'messages.search', { roomId: room.id, place: TEAM, query, limit: perRoom ?? 10 });
    if (found.hits.length > 0) groups.push({ roomId: room.id, place: TEAM, ...found });
  }
  return groups;
}

describe.skipIf(!runPostgresSuites)('search of every room on a team\'s PostgreSQL, many rooms', () => {
  const machines = twoMachinesPerTest();
  let logged: string[] = [];
  beforeEach(() => {
    logged = [];
    vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void logged.push(args.map(String).join(' ')));
  });
  afterEach(() => vi.restoreAllMocks());

  /** B's search of every room (its team's groups), and the statements it sent the team's server that search messages. */
  async function searchAll(query: string, perRoom?: number): Promise<{ groups: Group[]; statements: number }> {
    const storage = await machines.b.app.teams.connections.storage(TEAM);
    const pool = (storage as unknown as { pool: { query: (text: string, values: unknown[]) => Promise<unknown> } }).pool;
    const sent = vi.spyOn(pool, 'query');
    try {
      const { groups } = await ok<{ groups: Group[] }>(machines.b, 'messages.searchAll', perRoom === undefined ? { query } : { query, perRoom });
      return { groups: groups.filter((g) => g.place === TEAM), statements: sent.mock.calls.filter(([text]) => text.includes('search_vector')).length };
    } finally {
      sent.mockRestore();
    }
  }

  it('one statement per team, with the same groups, hits, order and "more" as searching room by room, for a table of queries', async () => {
    await ok(machines.b, 'rooms.list', {});
    await seedRooms(machines);
    const table: Array<[string, number | undefined]> = [
      ['report', undefined], ['report', 1], ['report', 3], ['report', 50], ['zebra', undefined], ['rep*', 3], ['quarterly report', undefined],
      ['Alder', 2], ['ada', undefined], ['CAFE', undefined], ['alpha-beta', undefined], ['x@y.com', 5], ['schema review deploy', 1], ['nothingmatcheshere', undefined],
    ];
    const seen: Record<string, number> = {};
    for (const [query, perRoom] of table) {
      const { groups, statements } = await searchAll(query, perRoom);
      expect(statements, query).toBe(1);
      expect(groups, `${query} / ${perRoom}`).toEqual(await searchRoomByRoom(machines.b, query, perRoom));
      seen[`${query}/${perRoom ?? ''}`] = groups.length;
    }
    // The table covers what it should: many rooms found, a room with more than its page, and nothing found.
    expect(seen['report/']).toBeGreaterThan(40);
    expect((await searchAll('report')).groups.find((g) => g.roomId === 'room-07')).toMatchObject({ hasMore: true, hits: expect.any(Array) });
    expect(seen['nothingmatcheshere/']).toBe(0);
    // Archived rooms come last, pinned ones first, as the room list has them.
    const order = (await searchAll('report', 1)).groups.map((g) => g.roomId);
    expect(order.indexOf('room-05')).toBeLessThan(order.indexOf('room-01'));
    expect(order.at(-1)).toMatch(/^room-(03|14|25|36|47|58|69)$/);
  });

  it('a room row forged past 2^53 is left out with its hits, said once in the log; the other rooms are found', async () => {
    await ok(machines.b, 'rooms.list', {});
    await seedRooms(machines);
    const now = new Date().toISOString();
    await machines.teamRows(
      `INSERT INTO rooms (room_id, kind, display_name, created_at, updated_at, next_message_number) VALUES ('forged', 'named', 'Forged', $1, $1, $2)`,
      now, BEYOND_2_53,
    );
    await machines.teamRows(`INSERT INTO messages (room_id, number, kind, source, sender, text, created_at) VALUES ('forged', 1, 'message', 'human', 'eve', 'zebra report forged', $1)`, now);
    // And in a room of its own, a message whose reply number no JS number holds: that hit alone is left out.
    await machines.teamRows(
      `INSERT INTO messages (room_id, number, kind, source, sender, text, reply_to_number, created_at) VALUES ('room-01', 1000, 'message', 'human', 'eve', 'zebra forged reply', $1, $2)`,
      '1152921504606846976', now,
    );

    const first = await searchAll('zebra');
    expect(first.groups.length).toBeGreaterThan(10);
    expect(first.groups.map((g) => g.roomId)).not.toContain('forged');
    expect(first.groups.find((g) => g.roomId === 'room-01')?.hits).not.toContainEqual(expect.objectContaining({ number: 1000 }));
    expect(await searchAll('zebra')).toEqual(first);
    const aboutForged = logged.filter((line) => line.includes('"forged"'));
    expect(aboutForged, logged.join('\n')).toHaveLength(1);
    expect(aboutForged[0]).toContain(BEYOND_2_53);
    expect(logged.filter((line) => line.includes('1152921504606846976'))).toHaveLength(1);
    // The answer is the one room by room gives (the room list leaves the forged room out too).
    expect(first.groups).toEqual(await searchRoomByRoom(machines.b, 'zebra', undefined));
  });
});
