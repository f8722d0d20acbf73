// MCP prompts and completions through real helpers against a real serve: `start` joins this
// repository's room, registers once with a fresh random key and loops on wait_for_messages;
// `status` summarises the room, this chat's tasks and the open requests; completion/complete
// suggests room ids and task ids for the resource templates and the prompts' room argument.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, type ServeHandle } from '../support';
import { connectAgent, makeRepo, registerWorker, startApp, type Agent } from './tools/harness';

let serve: ServeHandle;
let ada: Agent;
let bob: Agent;

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'claude-code', cwd: makeRepo('git@github.com:Acme/Prompted.git', { room: 'prompted-room' }) });
  bob = await connectAgent(serve, { clientName: 'codex' });
});

afterAll(async () => {
  await ada?.client.close();
  await bob?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

const promptText = async (agent: Agent, name: string, args: Record<string, string> = {}) => {
  const prompt = await agent.client.getPrompt({ name, arguments: args });
  expect(prompt.messages).toHaveLength(1);
  expect(prompt.messages[0]).toMatchObject({ role: 'user', content: { type: 'text' } });
  return (prompt.messages[0].content as { text: string }).text;
};

describe('prompts', () => {
  it('lists start and status, each with an optional room argument', async () => {
    const { prompts } = await ada.client.listPrompts();
    expect(prompts.map((p) => p.name)).toEqual(['start', 'status']);
    for (const prompt of prompts) {
      expect(prompt.description).toBeTruthy();
      expect(prompt.arguments).toEqual([expect.objectContaining({ name: 'room', required: false })]);
    }
  });

  it('start names this folder\'s room and a fresh random registration key each time', async () => {
    const first = await promptText(ada, 'start');
    expect(first).toContain('Call join_room with name "prompted-room".');
    expect(first).toMatch(/register_agent_session .*registration_key "chat-[0-9a-f]{32}"/);
    expect(first).toMatch(/Loop: call wait_for_messages with your worker_id/);
    const key = (text: string) => /registration_key "([^"]+)"/.exec(text)![1];
    expect(key(await promptText(ada, 'start'))).not.toBe(key(first));
    // Without a room for the folder, it says how to get one.
    expect(await promptText(bob, 'start')).toMatch(/No room is configured for this folder\. Ask the user which room to join/);
    expect(await promptText(bob, 'start', { room: 'chosen-room' })).toContain('Call join_room with name "chosen-room".');
  });

  it('status summarises the room, the tasks this chat holds, and the open requests to people', async () => {
    const { workerId, roomId } = await registerWorker(ada, 'prompted-room', 'Juniper');
    const bobWorker = (await registerWorker(bob, 'prompted-room', 'Birch')).workerId;
    const mine = (await ada.call('add_task', { worker_id: workerId, title: 'Write the prompts' })).task.id;
    await bob.call('update_task', { worker_id: bobWorker, task_id: mine, status: 'accepted' });
    await ada.call('claim_task', { worker_id: workerId, task_id: mine });
    const other = (await bob.call('add_task', { worker_id: bobWorker, title: 'Someone else\'s task' })).task.id;
    await ada.call('request_human_input', { worker_id: workerId, client_id: 'prompt-ask-1', title: 'Which colour?', body: 'Blue or green?', category: 'question' });
    const text = await promptText(ada, 'status');
    expect(text).toContain(`Room: prompted-room (${roomId}, named)`);
    const held = text.slice(text.indexOf('Held or reviewed by this chat'));
    expect(held).toContain(`${mine} [assigned] Write the prompts`);
    expect(held.slice(0, held.indexOf('Open requests'))).not.toContain(other);
    expect(text).toMatch(/Open requests to people \(1\):\n- req_\d+ \[question\] Which colour\?/);
    expect(await promptText(bob, 'status', { room: 'no-such-room' })).toContain('There is no LetAgents room "no-such-room"');
  });

  it('refuses an unknown prompt with invalid params', async () => {
    await expect(ada.client.getPrompt({ name: 'deploy' })).rejects.toMatchObject({ code: -32602 });
  });
});

describe('completion/complete', () => {
  it('suggests room ids and task ids for the resource templates, and rooms for the prompts', async () => {
    await bob.call('join_room', { name: 'completion-alpha' });
    await bob.call('join_room', { name: 'completion-beta' });
    await bob.call('send_message', { room_id: 'completion-beta', text: 'the most recent room' });
    const rooms = await bob.client.complete({ ref: { type: 'ref/resource', uri: 'letagents://rooms/{room_id}/messages' }, argument: { name: 'room_id', value: 'completion-' } });
    // The most recently active room first.
    expect(rooms.completion.values).toEqual(['completion-beta', 'completion-alpha']);
    expect(rooms.completion).toMatchObject({ total: 2, hasMore: false });
    const prompt = await bob.client.complete({ ref: { type: 'ref/prompt', name: 'start' }, argument: { name: 'room', value: 'completion-a' } });
    expect(prompt.completion.values).toEqual(['completion-alpha']);

    const { workerId } = await registerWorker(bob, 'completion-beta', 'Sage');
    const task = (await bob.call('add_task', { worker_id: workerId, title: 'Complete me' })).task.id;
    const tasks = await bob.client.complete({
      ref: { type: 'ref/resource', uri: 'letagents://rooms/{room_id}/tasks/{task_id}' },
      argument: { name: 'task_id', value: 'task_' },
      context: { arguments: { room_id: 'completion-beta' } },
    });
    expect(tasks.completion.values).toEqual([task]);
    // A reference this server does not know has no suggestions.
    const unknown = await bob.client.complete({ ref: { type: 'ref/prompt', name: 'other' }, argument: { name: 'x', value: '' } });
    expect(unknown.completion.values).toEqual([]);
  });
});
