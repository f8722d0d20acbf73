// get_message_status through real helpers (issue 14), in the suite's place: who a mention
// routes to, when each got it (a read counts), D1 and D2; the receipts and the token meter
// land in the database of the room's place (a team room's in the team's, none on this computer).
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, waitUntil, type ServeHandle } from '../../support';
import { placeRows, type PlacedApp } from '../../support/place';
import { connectAgent, expectSoft, registerWorker, startApp, type Agent } from './harness';

const ROOM = 'status-room';

let serve: ServeHandle & PlacedApp;
let ada: Agent;
let bob: Agent;
let juniper: string;
let birch: string;
let birchSession: string;

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'claude-code' });
  bob = await connectAgent(serve, { clientName: 'codex' });
  juniper = (await registerWorker(ada, ROOM, 'Juniper')).workerId;
  const reg = await registerWorker(bob, ROOM, 'Birch');
  birch = reg.workerId;
  birchSession = reg.session.session_id;
});

afterAll(async () => {
  await ada?.client.close();
  await bob?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

describe('get_message_status', () => {
  it('says a mention waits for its agent until the agent reads it, then when it got it', async () => {
    const sent = await ada.call('send_message', { worker_id: juniper, text: '@Birch could you check the login test?' });
    const before = await ada.call('get_message_status', { worker_id: juniper, message_id: sent.id });
    expect(before).toMatchObject({ success: true, room_id: ROOM, message_id: sent.id });
    expect(before.recipients).toEqual([{ agent: 'Birch', delivered_at: null, reachability: 'working' }]);

    const read = await bob.call('read_messages', { worker_id: birch, limit: 5 });
    expect(read.messages.map((m: { id: string }) => m.id)).toContain(sent.id);
    const after = await ada.call('get_message_status', { worker_id: juniper, message_id: sent.id, agent: '@birch' });
    expect(after.recipients).toEqual([{ agent: 'Birch', delivered_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT/), reachability: 'working' }]);
  });

  it('refuses a message or an agent the room does not have, softly', async () => {
    expectSoft(await ada.call('get_message_status', { worker_id: juniper, message_id: 'msg_999' }), 'Message not found.');
    expectSoft(await ada.call('get_message_status', { worker_id: juniper, message_id: 'msg_1', agent: 'Nobody' }), 'No agent named Nobody in this room.');
  });

  it("keeps the room's receipts and token meter in its place's database, and none on this computer when that is a team's", async () => {
    // Both are written in the background (receipts within 100 ms, the meter within a second).
    const rowsOf = (table: string) => placeRows<{ session_id: string }>(serve, `SELECT session_id FROM ${table} WHERE room_id = ?`, ROOM);
    await waitUntil(async () => (await rowsOf('delivery_spans')).some((r) => r.session_id === birchSession), 10_000, 'the receipt in the place');
    await waitUntil(async () => (await rowsOf('token_meter')).some((r) => r.session_id === birchSession), 10_000, "Birch's meter in the place");
    if (serve.teamUrl) {
      const local = new Database(join(serve.dataDir, 'letagents.db'), { readonly: true, fileMustExist: true });
      try {
        for (const table of ['delivery_spans', 'token_meter', 'needs_you_alerts']) expect(local.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get(), table).toBe(0);
      } finally {
        local.close();
      }
    }
  });
});
