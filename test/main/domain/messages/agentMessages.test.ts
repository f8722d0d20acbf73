import { afterEach, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createThreadContextBudget,
  toAgentMessage,
  toAgentMessages,
  type AgentMessage,
} from '../../../../src/main/domain/messages/agentMessages';
import { getMessageRow, newestPage, pageAfter } from '../../../../src/main/domain/messages/read';
import { agent, makeStore, namedRoom, post, type TestStore } from './testStore';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

const byId = (messages: AgentMessage[]) => new Map(messages.map((m) => [m.id, m]));

describe('the agent-readable message', () => {
  it('has the documented fields for an agent message', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await post(t, room, 'hello', { author: agent('Juniper') });
    const [m] = (await toAgentMessages(t.q, room, await newestPage(t.q, room, 0))).messages;
    expect(m).toEqual({
      id: 'msg_1',
      kind: 'message',
      source: 'agent',
      sender: "Juniper | Ada's agent | Claude Code",
      text: 'hello',
      timestamp: '2026-05-01T09:30:02.000Z',
      agent_identity: {
        actor_label: "Juniper | Ada's agent | Claude Code",
        agent_key: 'key_juniper',
        agent_session_id: 'local_juniper',
      },
      agent_prompt_kind: null,
      attachments: [],
      reply_to: null,
    });
    expect(Object.keys(m)).toEqual([
      'id', 'kind', 'source', 'sender', 'text', 'timestamp', 'agent_identity', 'agent_prompt_kind', 'attachments', 'reply_to',
    ]);
  });

  it('gives agent_identity only to agent messages', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await post(t, room, 'from a person');
    await t.write((tx) =>
      tx.run(
        `INSERT INTO messages (room_id, number, kind, source, sender, text, publisher_agent_key, publisher_session_id, created_at)
         VALUES (?, 2, 'event', 'system', 'LetAgents', 'Juniper joined the room.', 'key_juniper', 'local_juniper', ?)`,
        room, tx.now,
      ),
    );
    const [person, system] = (await toAgentMessages(t.q, room, await newestPage(t.q, room, 0))).messages;
    expect(person).toMatchObject({ source: 'human', agent_identity: null });
    expect(system).toMatchObject({ source: 'system', kind: 'event', agent_identity: null });
  });

  it('adds visible_text, agent_prompt and prompt_injected only when a prompt kind is set', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await post(t, room, 'please review', { agentPromptKind: 'inline' });
    await post(t, room, 'welcome', { agentPromptKind: 'join' });
    await post(t, room, '', { author: agent('Juniper'), agentPromptKind: 'auto' });
    await post(t, room, 'plain');
    const messages = (await toAgentMessages(t.q, room, await newestPage(t.q, room, 0), {
      agentPromptText: (row) => (row.agent_prompt_kind === 'auto' ? 'Keep waiting for messages.' : null),
    })).messages;
    expect(messages[0]).toMatchObject({ visible_text: 'please review', agent_prompt: 'please review', prompt_injected: true });
    expect(messages[1]).toMatchObject({ visible_text: 'welcome', agent_prompt: 'welcome', prompt_injected: false });
    expect(messages[2]).toMatchObject({ text: '', visible_text: '', agent_prompt: 'Keep waiting for messages.', prompt_injected: false });
    expect(messages[3]).not.toHaveProperty('visible_text');
    expect(messages[3]).not.toHaveProperty('agent_prompt');
    expect(messages[3]).not.toHaveProperty('prompt_injected');
  });
});

describe('reply_to quotes', () => {
  it('quotes a target in the same result, cut to 1 000 characters', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const long = '😀'.repeat(1200);
    await post(t, room, long, { author: agent('Cedar') });
    await post(t, room, 'answer', { replyTo: 'msg_1' });
    const [, reply] = (await toAgentMessages(t.q, room, await newestPage(t.q, room, 0))).messages;
    expect(reply.reply_to).toEqual({
      id: 'msg_1',
      sender: "Cedar | Ada's agent | Claude Code",
      text: '😀'.repeat(1000),
      source: 'agent',
      timestamp: '2026-05-01T09:30:02.000Z',
    });
  });

  it('looks up a target outside the result', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await post(t, room, 'old question');
    await post(t, room, 'filler');
    await post(t, room, 'late answer', { replyTo: 'msg_1' });
    const result = await toAgentMessages(t.q, room, await pageAfter(t.q, room, 2, 10));
    expect(result.messages[0].reply_to).toMatchObject({ id: 'msg_1', text: 'old question', sender: 'Ada' });
    expect(result.threadContextTruncated).toBe(false);
  });

  async function manyOutsideTargets(t: TestStore, room: string, count: number, text = (i: number) => `target ${i}`) {
    for (let i = 1; i <= count; i++) await post(t, room, text(i));
    for (let i = 1; i <= count; i++) await post(t, room, `reply ${i}`, { replyTo: `msg_${i}` });
    return pageAfter(t.q, room, count, 0);
  }

  it('stops after 16 lookups: further targets become {id} and the result is flagged', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const rows = await manyOutsideTargets(t, room, 18);
    const result = await toAgentMessages(t.q, room, rows);
    expect(result.messages.slice(0, 16).every((m) => m.reply_to?.text !== undefined)).toBe(true);
    expect(result.messages[16].reply_to).toEqual({ id: 'msg_17' });
    expect(result.messages[17].reply_to).toEqual({ id: 'msg_18' });
    expect(result.threadContextTruncated).toBe(true);
  });

  it('one lookup serves every reply to the same target', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    await post(t, room, 'popular');
    for (let i = 0; i < 20; i++) await post(t, room, `reply ${i}`, { replyTo: 'msg_1' });
    const result = await toAgentMessages(t.q, room, await pageAfter(t.q, room, 1, 0));
    expect(result.messages.every((m) => m.reply_to?.text === 'popular')).toBe(true);
    expect(result.threadContextTruncated).toBe(false);
  });

  it('stops when lookups would read more than 256 KiB', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const rows = await manyOutsideTargets(t, room, 3, (i) => String(i).repeat(100 * 1024));
    const result = await toAgentMessages(t.q, room, rows);
    expect(result.messages[0].reply_to?.text).toHaveLength(1000);
    expect(result.messages[1].reply_to?.text).toHaveLength(1000);
    expect(result.messages[2].reply_to).toEqual({ id: 'msg_3' });
    expect(result.threadContextTruncated).toBe(true);
  });

  it('a shared budget spans several calls', async () => {
    const t = makeStore();
    const room = await namedRoom(t);
    const rows = await manyOutsideTargets(t, room, 18);
    const budget = createThreadContextBudget();
    expect((await toAgentMessages(t.q, room, rows.slice(0, 10), { budget })).threadContextTruncated).toBe(false);
    const second = await toAgentMessages(t.q, room, rows.slice(10), { budget });
    expect(second.threadContextTruncated).toBe(true);
    expect(second.messages[6].reply_to).toEqual({ id: 'msg_17' });
    expect(budget.truncated).toBe(true);
  });
});

describe('thread fields', () => {
  async function thread(t: TestStore) {
    const room = await namedRoom(t);
    await post(t, room, 'root'); // 1
    await post(t, room, 'reply a', { threadParentId: 'msg_1' }); // 2
    await post(t, room, 'reply to a', { threadParentId: 'msg_2' }); // 3
    await post(t, room, 'unrelated'); // 4
    await post(t, room, 'quote', { replyTo: 'msg_4' }); // 5
    return room;
  }

  it('a reply carries its root as parent and root, and its literal target as reply-to', async () => {
    const t = makeStore();
    const room = await thread(t);
    const m = byId((await toAgentMessages(t.q, room, await newestPage(t.q, room, 0))).messages);
    expect(m.get('msg_3')).toMatchObject({
      thread_parent_id: 'msg_1',
      thread_root_id: 'msg_1',
      thread_reply_to_id: 'msg_2',
      thread: {
        parent_id: 'msg_1',
        root_message_id: 'msg_1',
        reply_to_id: 'msg_2',
        is_thread_reply: true,
        reply_count_in_result: 2,
        latest_reply_id_in_result: 'msg_3',
      },
    });
    expect(m.get('msg_3')?.reply_to?.id).toBe('msg_2');
  });

  it('a root carries thread fields only when its replies are in the same result', async () => {
    const t = makeStore();
    const room = await thread(t);
    const all = byId((await toAgentMessages(t.q, room, await newestPage(t.q, room, 0))).messages);
    expect(all.get('msg_1')).toMatchObject({
      thread_parent_id: null,
      thread_root_id: 'msg_1',
      thread_reply_to_id: null,
      thread: {
        parent_id: null,
        root_message_id: 'msg_1',
        reply_to_id: null,
        is_thread_reply: false,
        reply_count_in_result: 2,
        latest_reply_id_in_result: 'msg_3',
      },
    });
    const rootAlone = (await toAgentMessages(t.q, room, [(await getMessageRow(t.q, room, 1))!])).messages[0];
    expect(rootAlone).not.toHaveProperty('thread');
    expect(rootAlone).not.toHaveProperty('thread_root_id');
  });

  it('top-level messages and quote-replies carry no thread fields', async () => {
    const t = makeStore();
    const room = await thread(t);
    const m = byId((await toAgentMessages(t.q, room, await newestPage(t.q, room, 0))).messages);
    for (const id of ['msg_4', 'msg_5']) {
      expect(m.get(id)).not.toHaveProperty('thread');
      expect(m.get(id)).not.toHaveProperty('thread_parent_id');
    }
    expect(m.get('msg_5')?.reply_to?.id).toBe('msg_4');
  });

  it('a single reply on its own still says which thread it is in', async () => {
    const t = makeStore();
    const room = await thread(t);
    const reply = await toAgentMessage(t.q, room, (await getMessageRow(t.q, room, 2))!);
    expect(reply.thread).toMatchObject({ is_thread_reply: true, root_message_id: 'msg_1', reply_count_in_result: 1 });
    expect(reply.reply_to).toMatchObject({ id: 'msg_1', text: 'root' });
  });
});

describe('attachments', () => {
  it('are metadata only: no file a row names is read, whatever its path (issue 24)', async () => {
    const t = makeStore();
    const dataDir = mkdtempSync(join(tmpdir(), 'letagents-att-'));
    dirs.push(dataDir);
    const room = await namedRoom(t);
    const n = await post(t, room, 'files');
    writeFileSync(join(dataDir, 'secret.txt'), 'the secret');
    writeFileSync(join(dataDir, 'pic.png'), Buffer.from([1, 2, 3]));
    await t.write(async (tx) => {
      const insert = (...values: Array<string | number>) => tx.run('INSERT INTO attachments VALUES (?, ?, ?, ?, ?, ?, ?)', ...values);
      await insert(room, n, 'a1', 'pic.png', 'image/png', 3, join(dataDir, 'pic.png'));
      await insert(room, n, 'a2', 'secret.txt', 'text/plain', 10, join(dataDir, 'secret.txt'));
      await insert(room, n, 'a3', 'hostname', 'text/plain', 10, '/etc/hostname');
    });
    const [m] = (await toAgentMessages(t.q, room, await newestPage(t.q, room, 0))).messages;
    expect(m.attachments[0]).toEqual({
      id: 'a1',
      file_name: 'pic.png',
      mime_type: 'image/png',
      size_bytes: 3,
      url: null,
      download_url: null,
      data_url: null,
      content_base64: null,
    });
    expect(m.attachments.map((a) => [a.id, a.content_base64, a.data_url])).toEqual([['a1', null, null], ['a2', null, null], ['a3', null, null]]);
  });
});
