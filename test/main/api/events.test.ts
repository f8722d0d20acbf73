import { describe, expect, it } from 'vitest';
import { eventsForUi } from '../../../src/main/api';
import { sendMessage } from '../../../src/main/domain/messages/send';
import type { Subscribe } from '../../../src/main/web/socketBridge';
import { AppEvent } from '../../../src/shared/events';
import { eventsOf, setUpApi } from './harness';

describe('UI events', () => {
  it("pushes an agent's message ready to show, and every event matches the contract", async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    h.events.length = 0;
    await juniper.tool('send_message', { text: 'hello people' });
    const [created] = eventsOf(h.events, 'message.created');
    expect(created).toMatchObject({ roomId: 'lab', message: { id: 'msg_2', text: 'hello people', source: 'agent', sender: { name: 'Juniper', agentKey: juniper.agentKey } } });
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
    await juniper.tool('claim_task', { task_id: 'task_1' });
    await juniper.tool('remember_room_fact', { client_id: 'fact-0000001', category: 'term', title: 'WAL', body: 'Write-ahead log' });
    await h.call('rooms.rename', { roomId: 'lab', name: 'Lab' });
    expect(h.events.length).toBeGreaterThan(5);
    for (const event of h.events) expect(AppEvent.safeParse(event).success, JSON.stringify(event)).toBe(true);
  });

  it('says what changed for workers, tasks, memory and the queue', async () => {
    const h = await setUpApi();
    const juniper = await h.agent('lab', 'Juniper');
    expect(eventsOf(h.events, 'worker.changed')).toContainEqual({ type: 'worker.changed', place: 'local', roomId: 'lab', sessionId: juniper.sessionId, change: 'registered' });
    h.events.length = 0;
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
    await juniper.tool('claim_task', { task_id: 'task_1' });
    expect(eventsOf(h.events, 'task.changed').map((e) => [e.task.id, e.task.status, e.task.assignee?.name ?? null])).toEqual([
      ['task_1', 'accepted', null],
      ['task_1', 'assigned', 'Juniper'],
    ]);
    expect(eventsOf(h.events, 'worker.changed')).toContainEqual({ type: 'worker.changed', place: 'local', roomId: 'lab', sessionId: juniper.sessionId, change: 'presence' });
    expect(eventsOf(h.events, 'needsYou.changed').length).toBeGreaterThan(0);
    h.events.length = 0;
    await juniper.tool('remember_room_fact', { client_id: 'fact-0000001', category: 'term', title: 'WAL', body: 'Write-ahead log' });
    expect(h.events).toEqual([{ type: 'knowledge.changed', place: 'local', roomId: 'lab' }]);
  });

  it("tells the queue when an agent mentions the person, and not for other agents' chatter", async () => {
    const h = await setUpApi();
    const me = (await h.app.auth.ownerIdentity()).ownerLabel.replace(/[^A-Za-z0-9_.:/-]/g, '');
    const juniper = await h.agent('lab', 'Juniper');
    h.events.length = 0;
    await juniper.tool('send_message', { text: 'just thinking aloud' });
    expect(eventsOf(h.events, 'needsYou.changed')).toEqual([]);
    await juniper.tool('send_message', { text: `@${me} a question` });
    expect(eventsOf(h.events, 'message.created').at(-1)!.message.mentionsYou).toBe(true);
    expect(eventsOf(h.events, 'needsYou.changed')).toEqual([{ type: 'needsYou.changed', place: 'local', roomId: 'lab' }]);
  });

  it('pushes nothing for prompt-only rows or a refused write', async () => {
    const h = await setUpApi();
    await h.room('lab');
    await h.call('tasks.create', { roomId: 'lab', title: 'Fix login' });
    h.events.length = 0;
    await h.app.core.store.write((tx) => sendMessage(tx, { roomId: 'lab', author: { kind: 'person', label: 'Ada' }, text: '', agentPromptKind: 'auto' }));
    await h.fail('tasks.move', { roomId: 'lab', number: 1, to: 'done' });
    expect(h.events).toEqual([]);
  });

  it('stops delivering to a listener that unsubscribed; others keep receiving', async () => {
    const h = await setUpApi();
    await h.room('lab');
    // The browser host's socket bridge takes this feed as it is.
    const subscribe: Subscribe = eventsForUi(h.app);
    expect(eventsForUi(h.app)).toBe(subscribe);
    const first: AppEvent[] = [];
    const second: AppEvent[] = [];
    const stopFirst = subscribe((e) => first.push(e as AppEvent));
    const stopSecond = subscribe((e) => second.push(e as AppEvent));
    await h.call('messages.send', { roomId: 'lab', text: 'one' });
    stopFirst();
    await h.call('messages.send', { roomId: 'lab', text: 'two' });
    stopSecond();
    expect(first.map((e) => e.type)).toEqual(['message.created']);
    expect(second.map((e) => e.type)).toEqual(['message.created', 'message.created']);
  });
});
