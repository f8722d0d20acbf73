import { describe, expect, it } from 'vitest';
import { sendMessage } from '../../../../src/main/domain/messages/send';
import { getMessageRow } from '../../../../src/main/domain/messages/read';
import { archiveRoom } from '../../../../src/main/domain/rooms/rooms';
import type { PersonActor } from '../../../../src/main/domain/actor';
import { ada, agent, makeStore, namedRoom, post, snapshot } from './testStore';

describe('posting a message', () => {
  it('an agent posts under its actor label, with its agent key and session as publisher', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const juniper = agent('Juniper');
    const n = await t.write((tx) => sendMessage(tx, { roomId: room, author: juniper, text: 'hello' }));
    expect(n).toBe(1);
    expect(await getMessageRow(t.q, room, n)).toMatchObject({
      number: 1,
      kind: 'message',
      source: 'agent',
      sender: "Juniper | Ada's agent | Claude Code",
      text: 'hello',
      reply_to_number: null,
      thread_root_number: null,
      agent_prompt_kind: null,
      publisher_agent_key: 'key_juniper',
      publisher_session_id: 'local_juniper',
      created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
    });
    // The event carries what watchers of new messages need, so they need not read it back.
    expect(t.events.at(-1)).toEqual({
      type: 'message.created',
      place: 'local',
      roomId: room,
      number: 1,
      message: { kind: 'message', source: 'agent', text: 'hello', publisherAgentKey: 'key_juniper', replyToNumber: null, createdAt: (await getMessageRow(t.q, room, n))!.created_at },
    });
  });

  it('a person posts as themself with source human and no publisher', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const n = await post(t, room, 'from the app');
    expect(await getMessageRow(t.q, room, n)).toMatchObject({
      source: 'human',
      sender: 'Ada',
      publisher_agent_key: null,
      publisher_session_id: null,
    });
  });

  it('numbers messages densely per room', async () => {
    const t = makeStore();
    const a = await namedRoom(t, 'a');
    const b = await namedRoom(t, 'b');
    expect([await post(t, a, '1'), await post(t, a, '2'), await post(t, b, '1'), await post(t, a, '3')]).toEqual([1, 2, 1, 3]);
  });

  it('stores status posts and agent prompt kinds as given', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const n = await post(t, room, '[status] working on task_7', { author: agent('Juniper'), kind: 'status' });
    const m = await post(t, room, 'please look', { agentPromptKind: 'inline' });
    expect((await getMessageRow(t.q, room, n))?.kind).toBe('status');
    expect((await getMessageRow(t.q, room, m))?.agent_prompt_kind).toBe('inline');
  });

  it('accepts text of exactly 262 144 bytes and a sender at both limits', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const longSender: PersonActor = { kind: 'person', label: 'é'.repeat(512) }; // 512 chars, 1024 bytes
    const wideSender: PersonActor = { kind: 'person', label: '😀'.repeat(512) }; // 512 chars, 2048 bytes
    await expect(post(t, room, 'x'.repeat(262_144))).resolves.toBe(1);
    await expect(post(t, room, 'ok', { author: longSender })).resolves.toBe(2);
    await expect(post(t, room, 'ok', { author: wideSender })).resolves.toBe(3);
  });

  it('a prompt-only row (auto prompt, blank text) is the one message allowed to be blank', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const n = await post(t, room, '  \n', { author: agent('Juniper'), agentPromptKind: 'auto' });
    expect(await getMessageRow(t.q, room, n)).toMatchObject({ text: '', agent_prompt_kind: 'auto' });
  });
});

describe('posting refuses bad input and changes nothing', () => {
  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['blank text', { text: '  \n\t ' }, 'Message text is required.'],
    ['empty text', { text: '' }, 'Message text is required.'],
    ['blank text marked as an inline prompt', { text: ' ', agentPromptKind: 'inline' }, 'Message text is required.'],
    ['text over 262 144 bytes', { text: 'x'.repeat(262_145) }, 'Message text must not exceed 262144 UTF-8 bytes.'],
    ['multi-byte text over the byte limit', { text: 'é'.repeat(131_073) }, 'Message text must not exceed 262144 UTF-8 bytes.'],
    ['a blank sender', { author: { kind: 'person', label: '  ' } }, 'Message sender must not exceed 512 characters or 2048 UTF-8 bytes.'],
    ['a sender over 512 characters', { author: { kind: 'person', label: 'a'.repeat(513) } }, 'Message sender must not exceed 512 characters or 2048 UTF-8 bytes.'],
    ['a sender of 513 four-byte characters', { author: { kind: 'person', label: '😀'.repeat(513) } }, 'Message sender must not exceed 512 characters or 2048 UTF-8 bytes.'],
    ['an unknown room', { roomId: 'missing' }, 'Room not found.'],
  ];

  it.each(cases)('%s', async (_label, override, phrase) => {
    const t = makeStore();
    const room = await namedRoom(t);
    await post(t, room, 'existing');
    const before = snapshot(t.db);
    const eventsBefore = t.events.length;
    await expect(t.write((tx) => sendMessage(tx, { roomId: room, author: ada, text: 'hi', ...override } as never))).rejects.toThrow(
      phrase,
    );
    expect(snapshot(t.db)).toBe(before);
    expect(t.events.length).toBe(eventsBefore);
  });

  it('an archived room refuses messages (R4) and keeps its counter', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await post(t, room, 'before archiving');
    await t.write((tx) => archiveRoom(tx, room));
    const before = snapshot(t.db);
    await expect(post(t, room, 'late')).rejects.toThrow('This room is archived.');
    expect(snapshot(t.db)).toBe(before);
  });

  it('a refused message uses up no number', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await post(t, room, 'one');
    await expect(post(t, room, 'two', { replyTo: 'msg_9' })).rejects.toThrow();
    expect(await post(t, room, 'two')).toBe(2);
  });

  it('errors carry the catalogue code and kind', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await expect(post(t, room, ' ')).rejects.toMatchObject({ code: 'M5', kind: 'hard' });
    await expect(post(t, 'missing', 'x')).rejects.toMatchObject({ code: 'R3', kind: 'soft' });
  });
});
