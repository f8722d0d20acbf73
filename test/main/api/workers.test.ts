import { placeKey } from '../../../src/main/domain/placeKeys';
import { RoomSignals } from '../../../src/main/mcp/roomSignals';
import { describe, expect, it, vi } from 'vitest';
import { eventsOf, setUpApi } from './harness';

describe('workers.list', () => {
  it('lists agent sessions online first, with the tasks they hold', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    const cedar = await h.agent('lab', 'Cedar', 'codex');
    await h.agent('other', 'Fern');
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
    await juniper.tool('claim_task', { task_id: 'task_1' });
    await h.call('workers.disconnect', { sessionId: cedar.sessionId });

    const lab = await h.call('workers.list', { roomId: 'lab' });
    expect(lab.map((a) => [a.name, a.online, a.ended])).toEqual([['Juniper', true, false], ['Cedar', false, true]]);
    expect(lab[0]).toMatchObject({
      sessionId: juniper.sessionId, agentKey: juniper.agentKey, roomId: 'lab', roomName: 'lab', ide: 'Claude Code',
      status: 'working', statusText: 'claimed task_1', tasksHeld: [{ number: 1, title: 'Fix login', status: 'assigned' }],
    });
    expect(lab[0].owner).toMatch(/agent$/);
    expect(lab[1].ide).toBe('Codex');
    expect((await h.call('workers.list', {})).map((a) => a.name).sort()).toEqual(['Cedar', 'Fern', 'Juniper']);
  });

  it('refuses an unknown room', async () => {
    const h = await setUpApi();
    expect(await h.fail('workers.list', { roomId: 'nowhere' })).toEqual({ code: 'R3', message: 'Room not found.' });
  });
});

describe('presence after a person moves a task', () => {
  it('puts the holder and the reviewer back to idle when the task leaves their hands, and leaves others alone', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    const cedar = await h.agent('lab', 'Cedar', 'codex');
    const fern = await h.agent('lab', 'Fern');
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix logout' });
    await juniper.tool('claim_task', { task_id: 'task_1' });
    await juniper.tool('update_task', { task_id: 'task_1', status: 'in_review' });
    await cedar.tool('claim_task_review', { task_id: 'task_1' });
    await fern.tool('post_status', { status: 'working on task_10, not task_1x' });
    const status = async () => new Map((await h.call('workers.list', { roomId: 'lab' })).map((a) => [a.name, [a.status, a.statusText]]));
    expect(await status()).toEqual(new Map([
      ['Juniper', ['reviewing', 'task_1 in review']],
      ['Cedar', ['reviewing', 'reviewing task_1']],
      ['Fern', ['working', 'working on task_10, not task_1x']],
    ]));
    const seen = h.events.length;

    await h.call('tasks.move', { roomId: 'lab', number: 1, to: 'done' });
    expect(await status()).toEqual(new Map([
      ['Juniper', ['idle', 'available in room']],
      ['Cedar', ['idle', 'available in room']],
      ['Fern', ['working', 'working on task_10, not task_1x']],
    ]));
    // The room header and the roster hear of it.
    const changed = eventsOf(h.events.slice(seen), 'worker.changed').filter((e) => e.change === 'presence').map((e) => e.sessionId);
    expect(changed.sort()).toEqual([juniper.sessionId, cedar.sessionId].sort());
  });
});

describe('workers.rename', () => {
  it('renames the agent in its room; its old messages keep their sender', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await juniper.tool('send_message', { text: 'before' });
    const renamed = await h.call('workers.rename', { sessionId: juniper.sessionId, name: '  Maple  ' });
    expect(renamed).toMatchObject({ name: 'Maple', sessionId: juniper.sessionId });
    await juniper.tool('send_message', { text: 'after' });
    const page = await h.call('messages.timeline', { roomId: 'lab' });
    // Between the two: the room hears of the rename (a system event naming both).
    expect(page.messages.slice(-3).map((m) => [m.sender.name, m.text])).toEqual([
      ['Juniper', 'before'],
      ['LetAgents', expect.stringMatching(/ renamed Juniper to Maple\.$/)],
      ['Maple', 'after'],
    ]);
    expect(eventsOf(h.events, 'worker.changed')).toContainEqual({ type: 'worker.changed', place: 'local', roomId: 'lab', sessionId: juniper.sessionId, change: 'renamed' });
  });

  it('refuses a taken name, a blank or too long name and an unknown session, changing nothing', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await h.agent('lab', 'Cedar');
    const before = h.snapshot();
    expect(await h.fail('workers.rename', { sessionId: juniper.sessionId, name: 'cedar' })).toEqual({
      code: 'name_taken',
      message: 'Another agent in this room already uses that name.',
    });
    expect(await h.fail('workers.rename', { sessionId: juniper.sessionId, name: '   ' })).toEqual({ code: 'invalid_input', message: 'name: Name is required.' });
    expect(await h.fail('workers.rename', { sessionId: juniper.sessionId, name: 'x'.repeat(65) })).toEqual({
      code: 'invalid_input',
      message: 'name: Name must be at most 64 characters.',
    });
    expect(await h.fail('workers.rename', { sessionId: 'local_missing', name: 'Maple' })).toEqual({ code: 'not_found', message: 'Agent session not found.' });
    expect(h.snapshot()).toBe(before);
  });
});

describe('workers.disconnect', () => {
  it('ends the connection at once: a wait in flight fails, the agent keeps its tasks', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
    await juniper.tool('claim_task', { task_id: 'task_1' });
    // The person disconnects the agent once its wait is registered.
    const registered = new Promise<void>((resolve) => {
      const add = h.app.hub.bindings.addWaiter.bind(h.app.hub.bindings);
      vi.spyOn(h.app.hub.bindings, 'addWaiter').mockImplementation((...args) => {
        resolve();
        return add(...args);
      });
    });
    const waiting = juniper.tool('wait_for_messages', { after_message_id: 'msg_3', timeout: 60_000 });
    await registered;
    const session = await h.call('workers.disconnect', { sessionId: juniper.sessionId });
    expect(session).toMatchObject({ online: false, ended: true });
    await expect(waiting).rejects.toThrow('This worker connection was replaced or disconnected. Reconnect explicitly with its worker_id.');
    expect((await h.call('tasks.get', { roomId: 'lab', number: 1 })).assignee?.name).toBe('Juniper');
  });

  it('refuses an unknown session', async () => {
    const h = await setUpApi();
    await h.room('lab');
    const before = h.snapshot();
    expect(await h.fail('workers.disconnect', { sessionId: 'local_missing' })).toEqual({ code: 'not_found', message: 'Agent session not found.' });
    expect(await h.fail('workers.disconnect', { sessionId: '' })).toMatchObject({ code: 'invalid_input' });
    expect(h.snapshot()).toBe(before);
  });
});

describe('workers.remove', () => {
  it("removes the agent from the room and returns its tasks there to accepted", async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
    await juniper.tool('claim_task', { task_id: 'task_1' });
    const session = await h.call('workers.remove', { sessionId: juniper.sessionId });
    expect(session).toMatchObject({ ended: true, online: false, tasksHeld: [] });
    expect(await h.call('tasks.get', { roomId: 'lab', number: 1 })).toMatchObject({ status: 'accepted', assignee: null });
    expect(h.app.hub.bindings.isOnline(placeKey('local', juniper.sessionId))).toBe(false);
  });

  it('refuses an unknown session, changing nothing', async () => {
    const h = await setUpApi();
    await h.room('lab');
    const before = h.snapshot();
    expect(await h.fail('workers.remove', { sessionId: 'local_missing' })).toEqual({ code: 'not_found', message: 'Agent session not found.' });
    expect(h.snapshot()).toBe(before);
  });
});

describe('workers.wakes', () => {
  it('says why the agent was woken, newest first, live to the UI and on its roster entry', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    const cedar = await h.agent('lab', 'Cedar', 'codex');
    expect(await h.call('workers.wakes', { sessionId: juniper.sessionId })).toEqual([]);
    expect((await h.call('workers.list', { roomId: 'lab' }))[0].lastWake).toBeNull();
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
    await juniper.tool('claim_task', { task_id: 'task_1' });
    const { last_observed_message_id: cursor } = await juniper.tool<{ last_observed_message_id: string }>('wait_for_messages', { timeout: 1_000 });
    h.events.length = 0;

    // A mention from Cedar wakes Juniper; then a person moving its task does.
    const waiting = juniper.tool<{ last_observed_message_id: string }>('wait_for_messages', { after_message_id: cursor, timeout: 20_000 });
    await cedar.tool('send_message', { text: '@Juniper the staging build is green, over to you' });
    const first = await waiting;
    await h.call('tasks.move', { roomId: 'lab', number: 1, to: 'in_progress' });
    await juniper.tool('wait_for_messages', { after_message_id: first.last_observed_message_id, timeout: 20_000 });

    const wakes = await h.call('workers.wakes', { sessionId: juniper.sessionId });
    expect(wakes).toEqual([
      expect.objectContaining({ roomId: 'lab', reason: 'system_event', concern: 'holder', taskNumber: 1, from: null, messages: 1, excerpt: expect.stringMatching(/^task_1 moved from assigned to in_progress by /) }),
      expect.objectContaining({ roomId: 'lab', reason: 'explicit_mention', concern: null, taskNumber: null, from: 'Cedar', messages: 1, excerpt: '@Juniper the staging build is green, over to you' }),
    ]);
    expect(eventsOf(h.events, 'worker.woken').map((e) => [e.sessionId, e.wake])).toEqual([
      [juniper.sessionId, wakes[1]],
      [juniper.sessionId, wakes[0]],
    ]);
    expect((await h.call('workers.list', { roomId: 'lab' })).find((a) => a.name === 'Juniper')!.lastWake).toEqual(wakes[0]);
  });

  it('counts a burst as one wake: messages committed back to back reach the waiting agent in one result', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    const { last_observed_message_id: cursor } = await juniper.tool<{ last_observed_message_id: string }>('wait_for_messages', { timeout: 1_000 });
    // The posts start once the wait is under way (its waiter registered).
    const registered = new Promise<void>((resolve) => {
      const add = h.app.hub.bindings.addWaiter.bind(h.app.hub.bindings);
      vi.spyOn(h.app.hub.bindings, 'addWaiter').mockImplementation((...args) => {
        resolve();
        return add(...args);
      });
    });
    const waiting = juniper.tool<{ messages: Array<{ text: string }> }>('wait_for_messages', { after_message_id: cursor, timeout: 20_000 });
    await registered;
    // Five posts in quick succession (the person's, queued one behind the other in the store).
    const texts = [1, 2, 3, 4, 5].map((n) => `@Juniper step ${n} of the deploy`);
    await Promise.all(texts.map((text) => h.call('messages.send', { roomId: 'lab', text })));
    expect((await waiting).messages.map((m) => m.text)).toEqual(texts);
    expect(await h.call('workers.wakes', { sessionId: juniper.sessionId })).toEqual([
      expect.objectContaining({ reason: 'explicit_mention', messages: 5, excerpt: texts[0] }),
    ]);
  });

  it('keeps a burst together when its second message commits while the woken wait reads the room', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    const { last_observed_message_id: cursor } = await juniper.tool<{ last_observed_message_id: string }>('wait_for_messages', { timeout: 1_000 });
    // The wait's look after the first message returns what it read; the second message commits
    // right after that read, before the wait goes on, so only the room's signal tells of it.
    const store = h.app.core.store;
    const read = store.read.bind(store);
    const next = RoomSignals.prototype.next;
    let firstCommitted = false;
    let looking = false;
    let injected = false;
    const off = h.app.core.bus.on('message.created', () => (firstCommitted = true));
    // A look listens for the room's next commit, then reads at once: that read is the look.
    const listen = vi.spyOn(RoomSignals.prototype, 'next').mockImplementation(function (this: RoomSignals, place: string, roomId: string) {
      if (firstCommitted && !injected) looking = true;
      return next.call(this, place, roomId);
    });
    vi.spyOn(store, 'read').mockImplementation(async (fn) => {
      const isLook = looking;
      looking = false;
      const seen = await read(fn);
      if (isLook && !injected) {
        injected = true;
        expect(await h.dispatch('messages.send', { roomId: 'lab', text: '@Juniper and the second half' })).toMatchObject({ ok: true });
      }
      return seen;
    });
    try {
      const waiting = juniper.tool<{ messages: Array<{ text: string }> }>('wait_for_messages', { after_message_id: cursor, timeout: 20_000 });
      await h.call('messages.send', { roomId: 'lab', text: '@Juniper first half' });
      expect((await waiting).messages.map((m) => m.text)).toEqual(['@Juniper first half', '@Juniper and the second half']);
      expect(injected).toBe(true);
    } finally {
      off();
      listen.mockRestore();
    }
  });

  it('refuses an unknown session', async () => {
    const h = await setUpApi();
    await h.room('lab');
    expect(await h.fail('workers.wakes', { sessionId: 'local_missing' })).toEqual({ code: 'not_found', message: 'Agent session not found.' });
  });
});
