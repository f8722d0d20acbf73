// Artifact and knowledge tools through a real helper (mcp-tools.md §6, §7):
// publish_room_artifact / get_room_artifacts (T18, republish, T3) and get_room_memory,
// remember_room_fact, request_human_input, get_human_requests (idempotency, K1).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, type ServeHandle } from '../../support';
import { connectAgent, expectHard, expectSoft, expectUnchanged, registerWorker, startApp, type Agent } from './harness';
import type { PlacedApp } from '../../support/place';

const ROOM = 'knowledge-room';
const MEMORY_ENTRY_KEYS = ['body', 'created_at', 'created_by', 'id', 'source_message_id', 'source_url', 'title'];
const REQUEST_KEYS = ['answer', 'body', 'category', 'created_at', 'id', 'recommendation', 'requested_by', 'source_message_id', 'source_url', 'status', 'title', 'unblocks'];
const K1 = 'client_id was already used for a different entry.';

let serve: ServeHandle & PlacedApp;
let ada: Agent;
let worker: string;
let label: string;

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'claude-code' });
  const reg = await registerWorker(ada, ROOM, 'Juniper');
  worker = reg.workerId;
  label = reg.session.actor_label;
});

afterAll(async () => {
  await ada?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

const as = (tool: string, args: Record<string, unknown> = {}) => ada.call(tool, { worker_id: worker, ...args });
const pr = (n: number, extra: Record<string, unknown> = {}) => ({ provider: 'github', kind: 'pull_request', url: `https://github.com/acme/widget/pull/${n}`, number: n, ...extra });

describe('room artifacts', () => {
  it('publishes an artifact linked to a task, and a republish updates it and adds links', async () => {
    const one = (await as('add_task', { title: 'Task one' })).task.id;
    const two = (await as('add_task', { title: 'Task two' })).task.id;
    const first = await as('publish_room_artifact', { artifact: pr(11, { title: 'Draft', state: 'open' }), task_id: one });
    expect(Object.keys(first).sort()).toEqual(['artifact', 'created', 'room_id', 'success']);
    expect(first).toMatchObject({ success: true, room_id: ROOM, created: true });
    expect(Object.keys(first.artifact).sort()).toEqual(['artifact', 'artifact_id', 'created_at', 'published_by', 'task_ids', 'updated_at']);
    expect(first.artifact).toMatchObject({
      artifact_id: expect.stringMatching(/^artifact_[1-9]\d*$/), task_ids: [one], published_by: label,
      artifact: { provider: 'github', kind: 'pull_request', id: null, number: 11, title: 'Draft', url: 'https://github.com/acme/widget/pull/11', ref: null, state: 'open' },
    });
    const again = await as('publish_room_artifact', { artifact: pr(11, { title: 'Ready', state: 'merged' }), linked_task_ids: [two] });
    expect(again).toMatchObject({ created: false, artifact: { artifact_id: first.artifact.artifact_id, task_ids: [one, two], artifact: { title: 'Ready', state: 'merged' } } });

    const branch = await as('publish_room_artifact', { artifact: { provider: 'github', kind: 'branch', ref: 'fix/login' } });
    const list = await as('get_room_artifacts');
    expect(Object.keys(list).sort()).toEqual(['artifacts', 'room_id', 'success']);
    expect(list.artifacts.map((a: { artifact_id: string }) => a.artifact_id)).toEqual([branch.artifact.artifact_id, first.artifact.artifact_id]);
    expect((await as('get_room_artifacts', { task_id: two })).artifacts.map((a: { artifact_id: string }) => a.artifact_id)).toEqual([first.artifact.artifact_id]);
    expect((await as('get_room_artifacts', { limit: 1 })).artifacts).toHaveLength(1);
  });

  it('refuses an artifact without identity (T18) hard and an unknown task (T3) softly, storing nothing', async () => {
    await expectUnchanged(serve, async () => {
      expectHard(await as('publish_room_artifact', { artifact: { provider: 'github', kind: 'review', title: 'no identity' } }), 'An artifact needs at least one of url, id, number or ref.');
      expectHard(await as('publish_room_artifact', { artifact: { provider: 'github', kind: 'review', url: null, id: null, number: null, ref: null } }), 'An artifact needs at least one of url, id, number or ref.');
      expectSoft(await as('publish_room_artifact', { artifact: pr(12), task_id: 'task_999' }), 'Task not found.');
      expectSoft(await as('publish_room_artifact', { artifact: pr(12), linked_task_ids: ['task_01'] }), 'Task not found.');
      expectSoft(await as('get_room_artifacts', { task_id: 'task_999' }), 'Task not found.');
      expectHard(await as('publish_room_artifact', { artifact: pr(12, { colour: 'red' }) }), /colour|unrecognized/i);
      expectHard(await as('publish_room_artifact', { artifact: pr(12, { provider: 'sourceforge' }) }), /provider/);
      expectHard(await as('publish_room_artifact', { artifact: 'https://github.com/acme/widget/pull/12' }), /artifact/);
      expectHard(await as('publish_room_artifact', { artifact: pr(12), linked_task_ids: Array.from({ length: 33 }, (_, i) => `task_${i + 1}`) }), /linked_task_ids/);
      for (const limit of [0, 251, 2.5]) expectHard(await as('get_room_artifacts', { limit }), /limit/);
    });
  });
});

describe('room memory', () => {
  it('remembers a fact idempotently by client_id and shows it in its category', async () => {
    const source = await as('send_message', { text: 'We decided on Postgres.' });
    const input = { client_id: 'fact-db-0001', title: 'Database', body: 'We use Postgres 16.', category: 'decision', source_message_id: source.id, source_url: 'https://example.com/adr/1' };
    const first = await as('remember_room_fact', input);
    expect(Object.keys(first).sort()).toEqual(['created', 'fact', 'success']);
    expect(first).toMatchObject({ success: true, created: true, fact: { id: expect.stringMatching(/^fact_\d+$/), title: 'Database', body: 'We use Postgres 16.', source_message_id: source.id, source_url: 'https://example.com/adr/1', created_by: label } });
    const repeat = await as('remember_room_fact', input);
    expect(repeat).toMatchObject({ success: true, created: false, fact: { id: first.fact.id } });

    const memory = await as('get_room_memory');
    expect(Object.keys(memory).sort()).toEqual(['memory', 'room_id', 'success']);
    expect(Object.keys(memory.memory).sort()).toEqual(['constraints', 'decisions', 'goals', 'references', 'terms']);
    expect(memory.memory.decisions).toHaveLength(1);
    expect(Object.keys(memory.memory.decisions[0]).sort()).toEqual(MEMORY_ENTRY_KEYS);
    expect(memory.memory.decisions[0]).toMatchObject({ id: first.fact.id, title: 'Database' });
  });

  it('answers other content under a used client_id with soft K1, and refuses bad fields, storing nothing', async () => {
    await expectUnchanged(serve, async () => {
      expectSoft(await as('remember_room_fact', { client_id: 'fact-db-0001', title: 'Database', body: 'We use MySQL.', category: 'decision' }), K1);
      const ok = { client_id: 'fact-new-0001', title: 't', body: 'b', category: 'term' };
      expectHard(await as('remember_room_fact', { ...ok, client_id: 'short' }), /client_id/);
      expectHard(await as('remember_room_fact', { ...ok, category: 'idea' }), /category/);
      expectHard(await as('remember_room_fact', { ...ok, title: 't'.repeat(161) }), /title/);
      expectHard(await as('remember_room_fact', { ...ok, body: 'b'.repeat(8_001) }), /body/);
      expectHard(await as('remember_room_fact', { ...ok, source_url: `https://x/${'u'.repeat(2_048)}` }), /source_url/);
      expectHard(await as('remember_room_fact', { ...ok, source_message_id: 'msg_99999' }), 'reply_to must reference an existing local message in this room.');
      expectSoft(await ada.call('get_room_memory', { room_id: 'no-such-room' }), 'Room not found.');
    });
  });
});

describe('requests for human input', () => {
  it('opens req_N in "Needs you", announces it, and lists requests newest first', async () => {
    const input = { client_id: 'ask-db-00001', title: 'Which database?', body: 'Postgres or SQLite?', category: 'decision', recommendation: 'Postgres', unblocks: 'task_1' };
    const first = await as('request_human_input', input);
    expect(Object.keys(first).sort()).toEqual(['created', 'request', 'success']);
    expect(Object.keys(first.request).sort()).toEqual(REQUEST_KEYS);
    expect(first.request).toMatchObject({ id: expect.stringMatching(/^req_\d+$/), category: 'decision', status: 'open', recommendation: 'Postgres', unblocks: 'task_1', answer: null, requested_by: label });
    expect(first.created).toBe(true);
    const event = (await as('read_messages', { limit: 1 })).messages[0];
    expect(event).toMatchObject({ source: 'system', kind: 'event', text: `Juniper asked for input (${first.request.id}): Which database?` });
    expect(await as('request_human_input', input)).toMatchObject({ created: false, request: { id: first.request.id } });

    const second = await as('request_human_input', { client_id: 'ask-ship-0001', title: 'Ship it?', body: 'All green.', category: 'approval' });
    const list = await as('get_human_requests');
    expect(Object.keys(list).sort()).toEqual(['requests', 'room_id', 'success']);
    expect(list.requests.map((r: { id: string }) => r.id)).toEqual([second.request.id, first.request.id]);
  });

  it('answers K1 softly and refuses bad fields hard, storing nothing', async () => {
    await expectUnchanged(serve, async () => {
      expectSoft(await as('request_human_input', { client_id: 'ask-db-00001', title: 'Which database?', body: 'Changed body', category: 'decision' }), K1);
      const ok = { client_id: 'ask-new-00001', title: 't', body: 'b', category: 'question' };
      expectHard(await as('request_human_input', { ...ok, category: 'goal' }), /category/);
      expectHard(await as('request_human_input', { ...ok, recommendation: 'r'.repeat(2_001) }), /recommendation/);
      expectHard(await as('request_human_input', { ...ok, unblocks: 'u'.repeat(1_001) }), /unblocks/);
      expectHard(await as('request_human_input', { ...ok, body: '' }), /body/);
      expectSoft(await ada.call('get_human_requests', { room_id: 'no-such-room' }), 'Room not found.');
    });
  });
});
