// A message's receipts when its no_replies rows hold a reason this app does not know (a newer
// app of the same team recorded it, on the team's database): that agent reads "read it, but did
// not reply", the others keep their own words, and the receipts call itself does not fail.
// Rows are written straight into the database of the rooms' place. Runs in this computer's
// rooms and in team rooms (directly and through PgBouncer).
import { afterEach, describe, expect, it } from 'vitest';
import { personIn, startInProcessApp, type InProcessApp } from './apps';
import { register, type Reply } from './tools';
import { TEST_PLACE } from '../../support/place';

let started: InProcessApp | undefined;
afterEach(() => started?.close());

describe('receipts of a no-reply reason this app does not know', () => {
  it('read as "did not reply", beside the reasons it knows, in one receipts call', async () => {
    const inproc = (started = await startInProcessApp());
    const person = personIn(inproc.app);
    const keys = new Map<string, string>();
    let roomId = '';
    for (const name of ['Birch', 'Cedar']) {
      const client = await inproc.connect();
      roomId = await inproc.room(client, 'newer-reasons');
      keys.set(name, (await register(client, { room_id: roomId, registration_key: `newer-reasons-${name}-key-4f7a9c2e81d6`, display_name: name })).agent_session.agent_key);
    }
    const first = await person('messages.send', { roomId, text: 'Is the release branch cut yet?' });
    const second = await person('messages.send', { roomId, text: 'And the changelog?' });
    const rows: Array<[number, string, string]> = [[first.number, 'Birch', 'consulted_the_oracle'], [first.number, 'Cedar', 'passed'], [second.number, 'Cedar', 'approval_expired']];
    await (await inproc.app.places.get(TEST_PLACE)).write(async (tx) => {
      for (const [number, name, reason] of rows) {
        await tx.run('INSERT INTO no_replies (room_id, message_number, agent_key, reason, created_at) VALUES (?, ?, ?, ?, ?)', roomId, number, keys.get(name)!, reason, tx.now);
      }
    });

    const { receipts } = await person('delivery.receipts', { roomId, numbers: [first.number, second.number] });
    const byNumber = new Map((receipts as Reply[]).map((r) => [r.number, r]));
    const byName = (a: Reply, b: Reply) => a.name.localeCompare(b.name);
    expect([...byNumber.get(first.number).noReply].sort(byName)).toEqual([
      { name: 'Birch', why: 'read it, but did not reply' },
      { name: 'Cedar', why: 'read it and passed (said nothing)' },
    ]);
    expect(byNumber.get(second.number).noReply).toEqual([{ name: 'Cedar', why: 'read it, but your approval ran out (no answer in time)' }]);
  }, 60_000);
});
