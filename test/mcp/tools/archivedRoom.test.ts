// An archived room, in-process (only a person archives, and serve has no UI API yet):
// writes fail with R4 — hard for the posting tools, soft for the rest — reads still work,
// and the room leaves resources/list with a list_changed to every connection (§2.2, §9).
import { ResourceListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { archiveRoom, createInviteRoom } from '../../../src/main/domain/rooms/rooms';
import { cleanupSpawned } from '../../support';
import { expectHard, expectSoft, expectUnchanged, makeRepo, type Agent } from './harness';
import { startInProcessApp, type InProcessApp } from './inProcess';

const ROOM = 'archive-me';
const R4 = 'This room is archived.';

let app: InProcessApp;
let ada: Agent;
let bob: Agent;
let worker: string;
let listChanged: Promise<void>;

beforeAll(async () => {
  app = await startInProcessApp();
  ada = await app.connect();
  bob = await app.connect({ clientName: 'codex' });
  await ada.call('join_room', { name: ROOM });
  worker = (await ada.call('register_agent_session', { room_id: ROOM, registration_key: 'archived-room-key', display_name: 'Juniper' })).worker_id;
  await ada.call('add_task', { worker_id: worker, title: 'Before the archive' });
  await bob.call('join_room', { name: ROOM });
  await bob.call('send_message', { text: 'bob was here' });
  listChanged = new Promise((resolve) => bob.client.setNotificationHandler(ResourceListChangedNotificationSchema, () => resolve()));
  await (await app.storage()).write((tx) => archiveRoom(tx, ROOM));
});

afterAll(async () => {
  await app?.close();
  await cleanupSpawned();
});

describe('an archived room (in-process)', () => {
  it('refuses the posting tools hard with R4, as a worker and without one', async () => {
    await expectUnchanged(app, async () => {
      expectHard(await ada.call('send_message', { worker_id: worker, text: 'too late' }), R4);
      expectHard(await ada.call('send_thread_message', { worker_id: worker, text: 'too late', thread_parent_id: 'msg_1' }), R4);
      expectHard(await ada.call('post_status', { worker_id: worker, status: 'working' }), R4);
      expectHard(await bob.call('send_message', { text: 'too late' }), R4);
      expectHard(await bob.call('post_status', { status: 'working' }), R4);
    });
  });

  it('refuses other writes softly with R4', async () => {
    await expectUnchanged(app, async () => {
      expectSoft(await ada.call('add_task', { worker_id: worker, title: 'After the archive' }), R4);
      expectSoft(await ada.call('remember_room_fact', { worker_id: worker, client_id: 'archived-fact', title: 't', body: 'b', category: 'goal' }), R4);
      expectSoft(await ada.call('post_reasoning', { worker_id: worker, summary: 'thinking' }), R4);
      expectSoft(await bob.call('add_task', { title: 'After the archive' }), R4);
      expectSoft(await bob.call('request_human_input', { client_id: 'archived-ask', title: 't', body: 'b', category: 'question' }), R4);
      expectSoft(await bob.call('register_agent_session', { room_id: ROOM }), R4);
      expectSoft(await bob.call('join_room', { name: ROOM }), R4);
    });
  });

  it('does not join an archived invite room by code or by name', async () => {
    const storage = await app.storage();
    const invite = await storage.write((tx) => createInviteRoom(tx));
    await storage.write((tx) => archiveRoom(tx, invite.room_id));
    const dan = await app.connect();
    await expectUnchanged(app, async () => {
      expectSoft(await dan.call('join_code', { code: invite.room_id }), R4);
      expectSoft(await dan.call('join_room', { name: invite.room_id.toLowerCase() }), R4);
    });
    expect((await dan.call('get_current_room')).connected).toBe(false);
  });

  it('lets initialize_repo write the config but not join the archived room', async () => {
    const repo = makeRepo(null);
    const result = await bob.call('initialize_repo', { cwd: repo, room: ROOM });
    expect(result).toEqual({ success: true, created: join(repo, '.letagents.json'), room_id: ROOM, code: null, joined: false, error: R4 });
    expect(JSON.parse(readFileSync(join(repo, '.letagents.json'), 'utf8'))).toEqual({ room: ROOM });
    // An agent starting there is not auto-joined into the archived room either.
    const carol = await app.connect({ cwd: repo });
    expect((await carol.call('get_current_room')).connected).toBe(false);
  });

  it('still answers reads', async () => {
    expect((await ada.call('read_messages', { worker_id: worker })).messages.map((m: { text: string }) => m.text)).toContain('bob was here');
    expect((await bob.call('get_board', { room_id: ROOM })).tasks).toHaveLength(1);
    expect((await bob.call('search_messages', { room_id: ROOM, query: 'bob' })).matches).toHaveLength(1);
  });

  it('leaves resources/list and tells every connection the list changed', async () => {
    await listChanged;
    const { resources } = await bob.client.listResources();
    expect(resources.map((r) => r.uri)).not.toContain(`letagents://rooms/${ROOM}/messages`);
  });
});
