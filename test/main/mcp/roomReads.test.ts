// One read of a room for every wait a commit wakes (issue 38, roomReads.ts): waits that look at
// the same room with the same cursor share one read until the room's next message, which is
// then read afresh; a failed read is not kept; a team's reconnect drops what was read of it.
// On SQLite and, where the machine has it, PostgreSQL.
import { beforeAll, describe, expect, it } from 'vitest';
import { RoomReads } from '../../../src/main/mcp/roomReads';
import type { Storage } from '../../../src/main/store/port';
import { addMessage, addRoom, storageEngines } from '../store/storageFixtures';

const { engines, prepare } = storageEngines();

describe.each(engines)('room reads (%s)', (name, open) => {
  beforeAll(() => prepare(name));

  async function room() {
    const opened = await open();
    const { storage, bus } = opened;
    await storage.write(async (tx) => {
      await addRoom(tx, 'lab');
      for (const text of ['one', 'two', 'three']) await addMessage(tx, 'lab', text);
    });
    const reads = new RoomReads(bus);
    const ref = { place: storage.place, roomId: 'lab', storage };
    const post = (text: string) => storage.write((tx) => addMessage(tx, 'lab', text));
    return { storage, bus, reads, ref, post };
  }
  const texts = (page: { rows: ReadonlyArray<{ text: string }> | null }) => page.rows?.map((r) => r.text) ?? null;

  it('hands one read to every wait that looks with the same cursor, until the room\'s next message', async () => {
    const { storage, reads, ref, post } = await room();
    const before = storage.readCount;
    const pages = await Promise.all(Array.from({ length: 5 }, () => reads.page(ref, 1, 100)));
    expect(storage.readCount - before).toBe(1);
    for (const page of pages) expect(page).toEqual({ latest: 3, rows: pages[0].rows });
    expect(texts(pages[0])).toEqual(['two', 'three']);
    // Another cursor is another read; the newest window (no cursor) too.
    expect(texts(await reads.page(ref, 3, 100))).toBeNull();
    expect(texts(await reads.page(ref, null, 2))).toEqual(['two', 'three']);
    expect(storage.readCount - before).toBe(3);

    await post('four');
    const after = await reads.page(ref, 1, 100);
    expect(after.latest).toBe(4);
    expect(texts(after)).toEqual(['two', 'three', 'four']);
    expect(texts(await reads.page(ref, 3, 100))).toEqual(['four']);
    reads.close();
  });

  it('shares the agent-readable messages of the same rows, and reads them afresh after a new message', async () => {
    const { storage, reads, ref, post } = await room();
    const { rows } = await reads.page(ref, 0, 100);
    const before = storage.readCount;
    const [a, b] = await Promise.all([reads.agentMessages(ref, rows!), reads.agentMessages(ref, rows!)]);
    expect(storage.readCount - before).toBe(1);
    expect(a).toBe(b);
    expect(a.messages.map((m) => m.text)).toEqual(['one', 'two', 'three']);
    await post('four');
    await reads.agentMessages(ref, rows!);
    expect(storage.readCount - before).toBe(2);
    reads.close();
  });

  it('does not keep a failed read, and drops a team\'s reads when it reconnects', async () => {
    const { storage, bus, reads, ref } = await room();
    const failing = { ...ref, storage: { ...storage, place: storage.place, read: () => Promise.reject(new Error('the database is away')) } as unknown as Storage };
    await expect(reads.page(failing, 1, 100)).rejects.toThrow('the database is away');
    expect(texts(await reads.page(ref, 1, 100))).toEqual(['two', 'three']);

    const before = storage.readCount;
    await reads.page(ref, 1, 100);
    expect(storage.readCount - before).toBe(0);
    bus.publish({ type: 'place.reconnected', place: storage.place });
    await reads.page(ref, 1, 100);
    expect(storage.readCount - before).toBe(1);
    reads.close();
  });
});
