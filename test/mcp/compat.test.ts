// Agents prompted for the upstream `letagents` MCP server must just work, through real
// helpers against a real serve: every room tool takes agent_session_id (the knowledge
// tools too), the fields upstream sends and this app ignores are accepted whatever their
// value, upstream tools this app does not offer answer with what to call instead, and a
// join_room that finds no room says what to do.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { cleanupSpawned, type ServeHandle } from '../support';
import { UPSTREAM_ONLY_TOOLS } from '../../src/main/mcp/upstreamTools';
import { connectAgent, expectHard, expectSoft, makeRepo, registerWorker, startApp, type Agent } from './tools/harness';

const W16 =
  'Registered worker agent_session_id is required for this write action. Call register_agent_session for this room first, then pass the returned agent_session_id explicitly.';

let serve: ServeHandle;
let ada: Agent;

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'claude-code' });
});

afterAll(async () => {
  await ada?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

describe('agent_session_id on every room tool', () => {
  it('remember_room_fact and request_human_input act as the durable worker whose agent_session_id they get (no W16)', async () => {
    const { workerId, session, roomId } = await registerWorker(ada, 'compat-knowledge', 'Juniper');
    const fact = { client_id: 'compat-fact-1', title: 'Stack', body: 'SQLite.', category: 'decision' };
    expectHard(await ada.call('remember_room_fact', fact), W16);
    const remembered = await ada.call('remember_room_fact', { ...fact, agent_session_id: session.session_id });
    expect(remembered).toMatchObject({ success: true, created: true, fact: { created_by: session.actor_label } });
    const ask = { client_id: 'compat-ask-1', title: 'Ship?', body: 'Ready.', category: 'approval' };
    expectHard(await ada.call('request_human_input', ask), W16);
    const asked = await ada.call('request_human_input', { ...ask, agent_session_id: session.session_id, room_id: roomId });
    expect(asked).toMatchObject({ success: true, created: true, request: { requested_by: session.actor_label } });
    // worker_id works the same, and a repeat of the same client_id returns the same entry.
    expect(await ada.call('remember_room_fact', { ...fact, worker_id: workerId })).toMatchObject({ created: false, fact: { id: remembered.fact.id } });
  });
});

describe('join_room with a mistyped repository', () => {
  it('refuses a name written as a repository that names none, with the expected form, and adds no room', async () => {
    const before = roomIds();
    for (const name of ['github.com/acme', 'https://github.com/acme']) {
      expectSoft(
        await ada.call('join_room', { name }),
        `"${name}" is not a repository room name. A repository room is github.com/<owner>/<repo> (or the repository's git remote URL), e.g. github.com/acme/app.`,
      );
    }
    expect(roomIds()).toEqual(before);
    expect(await ada.call('join_room', { name: 'github.com/acme/app' })).toMatchObject({ room_id: 'github.com/acme/app', kind: 'repo' });
  });
});

describe('fields upstream sends and this app ignores', () => {
  it('are accepted with any value and change nothing', async () => {
    const { workerId, session } = await registerWorker(ada, 'compat-fields', 'Cedar');
    const as = { worker_id: workerId };
    const sent = await ada.call('send_message', { ...as, text: 'hello', conversation_id: 42, sender: 'someone else', unknown_field: true });
    expect(sent).toMatchObject({ text: 'hello', sender: session.actor_label });
    const status = await ada.call('post_status', { ...as, status: 'testing', sender: 'someone else', conversation_id: 'c-1' });
    expect(status).toMatchObject({ success: true, sender: session.actor_label });
    const board = { conversation_id: 'c-1', board_intent_id: 'intent_1', board_approval_token: 'token' };
    const added = await ada.call('add_task', { ...as, ...board, title: 'Compat task', created_by: 'someone else' });
    expect(added.task.created_by).toBe(session.actor_label);
    expect(await ada.call('get_current_room', { conversation_id: { any: 'shape' } })).toMatchObject({ connected: true });
    expect(await ada.call('join_room', { name: 'compat-fields', session_mode: 'live' })).toMatchObject({ session_mode: 'live' });
    expect(await ada.call('join_room', { name: 'compat-fields', session_mode: 7 })).toMatchObject({ session_mode: 'current' });
  });
});

  it('are named once in the server instructions instead of on every tool of tools/list', async () => {
    const fields = ['conversation_id', 'sender', 'created_by', 'session_mode', 'target_actor_instance_id', 'board_intent_id', 'board_approval_token'];
    const listed = (await ada.client.listTools()).tools.flatMap((t) => Object.keys(t.inputSchema.properties ?? {}));
    expect(listed.filter((field) => fields.includes(field))).toEqual([]);
    for (const field of [...fields, 'assignee']) expect(ada.client.getInstructions()).toContain(field);
  });

describe('upstream tools this app does not offer', () => {
  it('are not listed, and answer with what to call instead', async () => {
    const listed = (await ada.client.listTools()).tools.map((t) => t.name);
    for (const name of UPSTREAM_ONLY_TOOLS) expect(listed).not.toContain(name);
    expectHard(
      await ada.call('set_agent_name', { name: 'Juniper' }),
      'set_agent_name is not available in LetAgents Desktop. Names are chosen at registration: pass display_name to register_agent_session. A person can rename an agent in the app.',
    );
    expectHard(await ada.call('create_project', {}), /^create_project is not available in LetAgents Desktop\. Projects are rooms in this app\. Call create_room/);
    expectHard(await ada.call('approve_board_intent', { intent_id: 'i1' }), /board actions need no approval here/);
    expectHard(await ada.call('add_wake_rule', { event: 'timer' }), /Loop on wait_for_messages instead/);
    expect(await ada.call('list_wake_rules')).toEqual({ note: expect.stringMatching(/stored on this device/), active: [], recent: [] });
    expectHard(await ada.call('frobnicate'), 'Unknown tool: frobnicate. This server\'s tools are listed by tools/list.');
  });
});

/** Room ids in the app's database, as the sidebar lists them. */
function roomIds(): string[] {
  const db = new Database(join(serve.dataDir, 'letagents.db'), { readonly: true });
  try {
    return db.prepare('SELECT room_id FROM rooms ORDER BY room_id').pluck().all() as string[];
  } finally {
    db.close();
  }
}

describe('join_room without a name', () => {
  it('names what to do when the folder has no room, and joins the configured room when it has one', async () => {
    const lost = await connectAgent(serve, { clientName: 'cursor' });
    const before = roomIds();
    expectSoft(await lost.call('join_room'), 'No room detected for this folder. Call join_room with a name, or add a .letagents.json naming the room (initialize_repo writes one).');
    expect(roomIds()).toEqual(before);
    await lost.client.close();
    const configured = await connectAgent(serve, { clientName: 'cursor', cwd: makeRepo(null, { room: 'compat-configured' }) });
    expect(await configured.call('join_room')).toMatchObject({ room_id: 'compat-configured' });
    await configured.client.close();
  });
});
