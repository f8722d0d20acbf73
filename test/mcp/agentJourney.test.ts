// An agent's whole day through a real `letagents-desktop mcp` helper against a real
// `serve`: join, register, talk, wait, take a task, hand it in.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTools } from '../../src/main/mcp/tools';
import { cleanupSpawned, connectHelper, ensureCliBuilt, startServe, type HelperClient, type ServeHandle } from '../support';

let serve: ServeHandle;
let ada: HelperClient;
let bob: HelperClient;

async function call(client: HelperClient, name: string, args: Record<string, unknown> = {}) {
  const result = (await client.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean };
  const text = result.content[0].text;
  if (result.isError) return { isError: true, text };
  return JSON.parse(text);
}

beforeAll(async () => {
  await ensureCliBuilt();
  serve = await startServe();
  ada = await connectHelper(serve.dataDir, { clientName: 'claude-code' });
  bob = await connectHelper(serve.dataDir, { clientName: 'codex' });
}, 60_000);

afterAll(async () => {
  await ada?.close();
  await bob?.close();
  await serve?.stop();
  await cleanupSpawned();
});

describe('an agent working through the stdio helper', () => {
  it('lists the whole interactive_desktop tool surface, each room tool with worker_id, explained once in the instructions', async () => {
    const { tools } = await ada.listTools();
    const names = tools.map((t) => t.name).sort();
    expect(names).toEqual(allTools.map((t) => t.name).sort());
    for (const tool of tools) {
      const props = (tool.inputSchema.properties ?? {}) as Record<string, { type?: string }>;
      if ('room_id' in props) expect(props.worker_id?.type, tool.name).toBe('string');
    }
    // What every room tool shares is said once, in the initialize result, not in every tool.
    expect(ada.getInstructions()).toMatch(/register_agent_session with room_id and a fresh random registration_key/);
    expect(ada.getInstructions()).toMatch(/Pass worker_id on every room tool call/);
  });

  it('joins a room, registers, talks, and wakes the other agent', async () => {
    const room = await call(ada, 'join_room', { name: 'launch-plan' });
    expect(room).toMatchObject({ room_id: 'launch-plan', kind: 'named', created: true, is_local: true, place: 'local' });
    const adaReg = await call(ada, 'register_agent_session', { room_id: 'launch-plan', registration_key: 'ada-key-1-4f7a9c2e81d6b035', display_name: 'Juniper' });
    expect(adaReg.worker_id).toMatch(/^worker_[0-9a-f]{32}$/);
    expect(adaReg.agent_session.display_name).toBe('Juniper');
    expect(adaReg.agent_session.actor_label).toMatch(/^Juniper \| .+ \| Claude Code$/);

    await call(bob, 'join_room', { name: 'launch-plan' });
    const bobReg = await call(bob, 'register_agent_session', { room_id: 'launch-plan', registration_key: 'bob-key-1-4f7a9c2e81d6b035', display_name: 'Cedar' });
    const first = await call(bob, 'wait_for_messages', { worker_id: bobReg.worker_id, timeout: 1000 });
    const cursor = first.last_observed_message_id;

    // From the cursor the wait returns Ada's message whether it reaches the app before or after
    // her send (on a loaded machine no fixed pause tells which), so nothing waits in between.
    const waiting = call(bob, 'wait_for_messages', { worker_id: bobReg.worker_id, after_message_id: cursor, timeout: 30_000 });
    const sent = await call(ada, 'send_message', { worker_id: adaReg.worker_id, text: '@Cedar can you take the release notes?' });
    expect(sent.id).toMatch(/^msg_\d+$/);
    const woke = await waiting;
    expect(woke.messages.map((m: { id: string }) => m.id)).toContain(sent.id);
    const mine = woke.messages.find((m: { id: string }) => m.id === sent.id);
    expect(mine.activation.for_current_agent).toEqual({ decision: 'activate', reason: 'explicit_mention', addressed: true });
  });

  it('takes a task from proposal to review', async () => {
    const reg = await call(ada, 'register_agent_session', { room_id: 'launch-plan', registration_key: 'ada-key-1-4f7a9c2e81d6b035' });
    const other = await call(bob, 'register_agent_session', { room_id: 'launch-plan', registration_key: 'bob-key-1-4f7a9c2e81d6b035' });
    const added = await call(ada, 'add_task', { worker_id: reg.worker_id, title: 'Write release notes' });
    expect(added.task).toMatchObject({ status: 'proposed', title: 'Write release notes' });
    const selfAccept = await call(ada, 'update_task', { worker_id: reg.worker_id, task_id: added.task.id, status: 'accepted' });
    expect(selfAccept).toEqual({ isError: true, text: 'A task must be accepted by someone other than the worker that proposed it.' });
    await call(bob, 'update_task', { worker_id: other.worker_id, task_id: added.task.id, status: 'accepted' });
    const claimed = await call(bob, 'claim_task', { worker_id: other.worker_id, task_id: added.task.id });
    expect(claimed.task.status).toBe('assigned');
    const done = await call(bob, 'complete_task', { worker_id: other.worker_id, task_id: added.task.id, pr_url: 'https://github.com/a/b/pull/1' });
    expect(done.task.status).toBe('in_review');
    const missing = await call(bob, 'claim_task', { worker_id: other.worker_id, task_id: 'task_999' });
    expect(missing).toMatchObject({ success: false, error: 'Task not found.' });
  });

  it("reports before its first write the identity its implicit session then gets", async () => {
    const casual = await connectHelper(serve.dataDir, { clientName: 'gemini-cli' });
    try {
      const joined = await call(casual, 'join_room', { name: 'casual-room' });
      expect(joined.agent_identity.agent_session_id).toBeNull();
      const sent = await call(casual, 'send_message', { text: 'hello without registering' });
      expect(sent.agent_identity).toMatchObject({
        display_name: joined.agent_identity.display_name,
        actor_label: joined.agent_identity.actor_label,
        agent_key: joined.agent_identity.agent_key,
      });
      expect(sent.agent_identity.agent_session_id).toMatch(/^local_[0-9a-f-]{36}$/);
    } finally {
      await casual.close();
    }
  });
});
