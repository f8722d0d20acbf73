// The room message and task resources through real helpers (mcp-tools.md §9):
// capabilities, the templates, resources/list (one URI per room, ids percent-encoded),
// resources/read (shape, newest 500, -32002 for what does not exist), subscriptions with
// notifications/resources/updated, and list_changed.
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { cleanupSpawned, type ServeHandle } from '../../support';
import { connectAgent, registerWorker, startApp, type Agent } from './harness';
import { roomUriBase, TEST_PLACE, type PlacedApp } from '../../support/place';

let serve: ServeHandle & PlacedApp;
let ada: Agent;
let bob: Agent;

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'claude-code' });
  bob = await connectAgent(serve, { clientName: 'codex' });
});

afterAll(async () => {
  await ada?.client.close();
  await bob?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

const uriOf = (roomId: string) => `${roomUriBase(roomId)}/messages`;

/** Collects the notifications of one kind a client receives, and waits for the next match. */
function notifications(client: Client, kind: 'updated' | 'list_changed') {
  const seen: string[] = [];
  const waiters: Array<{ match: (uri: string) => boolean; resolve: (uri: string) => void }> = [];
  const push = (uri: string) => {
    seen.push(uri);
    for (const w of waiters.splice(0)) {
      if (w.match(uri)) w.resolve(uri);
      else waiters.push(w);
    }
  };
  if (kind === 'updated') client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => push(n.params.uri));
  else client.setNotificationHandler(ResourceListChangedNotificationSchema, () => push('list_changed'));
  return {
    seen,
    next: (match: (uri: string) => boolean = () => true) =>
      new Promise<string>((resolve) => {
        waiters.push({ match, resolve });
      }),
  };
}

async function readRoom(agent: Agent, roomId: string) {
  const result = await agent.client.readResource({ uri: uriOf(roomId) });
  expect(result.contents).toHaveLength(1);
  expect(result.contents[0]).toMatchObject({ uri: uriOf(roomId), mimeType: 'application/json' });
  return JSON.parse((result.contents[0] as { text: string }).text);
}

describe('letagents://rooms/{room_id}/messages', () => {
  it('declares subscribe and listChanged, and the templates of room messages and tasks', async () => {
    expect(ada.client.getServerCapabilities()?.resources).toEqual({ subscribe: true, listChanged: true });
    const { resourceTemplates } = await ada.client.listResourceTemplates();
    expect(resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'letagents://rooms/{room_id}/messages', mimeType: 'application/json' }),
      expect.objectContaining({ uriTemplate: 'letagents://rooms/{room_id}/tasks/{task_id}', mimeType: 'application/json' }),
      // A team's rooms: the same under the team's name (issue 12).
      expect.objectContaining({ uriTemplate: 'letagents://teams/{team}/rooms/{room_id}/messages', mimeType: 'application/json' }),
      expect.objectContaining({ uriTemplate: 'letagents://teams/{team}/rooms/{room_id}/tasks/{task_id}', mimeType: 'application/json' }),
    ]);
  });

  it('lists one URI per room, with the whole room id percent-encoded as one component', async () => {
    await ada.call('join_room', { name: 'github.com/acme/widget' });
    await ada.call('join_room', { name: 'plain room' });
    const { resources } = await ada.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain(uriOf('github.com/acme/widget'));
    expect(uris).toContain(uriOf('plain room'));
    expect(uriOf('github.com/acme/widget')).toMatch(/\/rooms\/github\.com%2Facme%2Fwidget\/messages$/);
    expect(new Set(uris).size).toBe(uris.length);
    // A team's room says whose it is.
    const team = TEST_PLACE === 'local' ? '' : ` (team ${TEST_PLACE})`;
    expect(resources.find((r) => r.uri.includes('widget'))).toMatchObject({ name: `github.com/acme/widget${team}`, mimeType: 'application/json' });
  });

  it('reads {room_id, messages, truncated, total_message_count} with agent-readable messages', async () => {
    const { workerId } = await registerWorker(ada, 'github.com/acme/widget', 'Juniper');
    const sent = await ada.call('send_message', { worker_id: workerId, text: 'readable through the resource' });
    const body = await readRoom(bob, 'github.com/acme/widget');
    expect(Object.keys(body).sort()).toEqual(['messages', 'room_id', 'total_message_count', 'truncated']);
    expect(body).toMatchObject({ room_id: 'github.com/acme/widget', truncated: false, total_message_count: body.messages.length });
    expect(body.messages.at(-1)).toEqual((await ada.call('read_messages', { room_id: 'github.com/acme/widget', limit: 1 })).messages[0]);
    expect(body.messages.at(-1).id).toBe(sent.id);
    // A resource that does not exist is JSON-RPC -32002 (resource not found) with the URI in data.
    for (const uri of [uriOf('no-such-room'), 'letagents://rooms/x', 'file:///etc/passwd']) {
      const error = await bob.client.readResource({ uri }).then(() => null, (e: { code?: number; data?: unknown }) => e);
      expect(error, uri).toMatchObject({ code: -32002, data: { uri } });
    }
    await expect(bob.client.readResource({ uri: uriOf('no-such-room') })).rejects.toThrow(/Room not found/);
  });

  it('reads one task at letagents://rooms/{room_id}/tasks/{task_id}, as the task tools return it', async () => {
    const { workerId } = await registerWorker(ada, 'task resource room', 'Sorrel');
    const added = await ada.call('add_task', { worker_id: workerId, title: 'Readable as a resource' });
    const uri = `${roomUriBase('task resource room')}/tasks/${added.task.id}`;
    const result = await bob.client.readResource({ uri });
    expect(result.contents[0]).toMatchObject({ uri, mimeType: 'application/json' });
    expect(JSON.parse((result.contents[0] as { text: string }).text)).toEqual(added.task);
    const missing = `${roomUriBase('task resource room')}/tasks/task_999`;
    await expect(bob.client.readResource({ uri: missing })).rejects.toMatchObject({ code: -32002, data: { uri: missing } });
  });

  it('returns only the newest 500 messages of a long room', async () => {
    await ada.call('join_room', { name: 'long room' });
    let last = '';
    for (let n = 1; n <= 502; n++) last = (await ada.call('send_message', { room_id: 'long room', text: `line ${n}` })).id;
    const body = await readRoom(bob, 'long room');
    expect(body.messages).toHaveLength(500);
    expect(body.truncated).toBe(true);
    expect(body.total_message_count).toBeGreaterThanOrEqual(502);
    expect(body.messages.at(-1).id).toBe(last);
    const numbers = body.messages.map((m: { id: string }) => Number(m.id.slice(4)));
    expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
  });
});

describe('subscriptions and notifications', () => {
  it('sends notifications/resources/updated for a subscribed room only, without content', async () => {
    await bob.call('join_room', { name: 'watched room' });
    await bob.call('join_room', { name: 'unwatched room' });
    const updates = notifications(bob.client, 'updated');
    await bob.client.subscribeResource({ uri: uriOf('watched room') });
    const next = updates.next();
    await ada.call('send_message', { room_id: 'unwatched room', text: 'nobody subscribed here' });
    await ada.call('send_message', { room_id: 'watched room', text: 'subscribed here' });
    expect(await next).toBe(uriOf('watched room'));
    expect(updates.seen).not.toContain(uriOf('unwatched room'));
  });

  it('accepts a subscription to a room that does not exist yet, and notifies once it does', async () => {
    const updates = notifications(bob.client, 'updated');
    await bob.client.subscribeResource({ uri: uriOf('future room') });
    const next = updates.next((uri) => uri === uriOf('future room'));
    await ada.call('join_room', { name: 'future room' });
    await ada.call('send_message', { room_id: 'future room', text: 'the room exists now' });
    expect(await next).toBe(uriOf('future room'));
    await bob.client.unsubscribeResource({ uri: uriOf('future room') });
  });

  it('notifies a subscribed task resource when the task changes', async () => {
    const { workerId } = await registerWorker(ada, 'task watch room', 'Thyme');
    const added = await ada.call('add_task', { worker_id: workerId, title: 'Watched task' });
    const uri = `${roomUriBase('task watch room')}/tasks/${added.task.id}`;
    const updates = notifications(bob.client, 'updated');
    await bob.client.subscribeResource({ uri });
    const next = updates.next((u) => u === uri);
    await ada.call('update_task', { worker_id: workerId, task_id: added.task.id, status: 'cancelled' });
    expect(await next).toBe(uri);
  });

  it('sends notifications/resources/list_changed to every connection when a room is created', async () => {
    const carol = await connectAgent(serve, { clientName: 'cursor' });
    const changes = notifications(carol.client, 'list_changed');
    const next = changes.next();
    const created = await ada.call('create_room');
    expect(await next).toBe('list_changed');
    expect((await carol.client.listResources()).resources.map((r) => r.uri)).toContain(uriOf(created.room_id));
    await carol.client.close();
  });

  it('pushes list_changed for a message in the current room to a connection without subscriptions', async () => {
    const dan = await connectAgent(serve, { clientName: 'windsurf' });
    await dan.call('join_room', { name: 'compat room' });
    const changes = notifications(dan.client, 'list_changed');
    const next = changes.next();
    await ada.call('send_message', { room_id: 'compat room', text: 'wake the old client' });
    expect(await next).toBe('list_changed');
    await dan.client.close();
  });
});
