// Results agents can parse: every tool of the registry, called for real (in-process, with GitHub
// sign-in against the fake GitHub), returns structuredContent equal to its JSON text, and the
// SDK client accepts it against the tool's outputSchema (it throws on a mismatch); a tool
// annotated read-only changes nothing. Soft failures fit the schemas too.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allTools } from '../../src/main/mcp/tools';
import { cleanupSpawned } from '../support';
import { startFakeGitHub, type FakeGitHub } from '../support/fakeGitHub';
import { dbState, makeRepo, type Agent } from './tools/harness';
import { startInProcessApp, type InProcessApp } from './tools/inProcess';
import { GOOD_CALLS } from './tools/toolCases';

let github: FakeGitHub;
let app: InProcessApp;
let ada: Agent;
let bob: Agent;
const returned = new Set<string>();

beforeAll(async () => {
  github = await startFakeGitHub();
  app = await startInProcessApp({ githubEnv: github.env() });
  ada = await app.connect({ cwd: makeRepo('git@github.com:Acme/Outputs.git'), clientName: 'claude-code' });
  bob = await app.connect({ clientName: 'codex' });
});

afterAll(async () => {
  await app?.close();
  await github?.close();
  await cleanupSpawned();
});

const readOnly = (name: string) => allTools.find((t) => t.name === name)?.annotations.readOnlyHint === true;

/** A call whose result the client checked against the outputSchema (callTool throws otherwise); a read-only tool's changes nothing. */
async function call(agent: Agent, name: string, args: Record<string, unknown> = {}) {
  const before = readOnly(name) ? await dbState(app) : null;
  const result = await agent.call(name, args);
  if (before) expect(await dbState(app), `${name} is annotated read-only but changed the database: give it a write's annotations (toolKit.ts) or make it only read`).toEqual(before);
  expect(result, `${name}: ${JSON.stringify(result)}`).not.toHaveProperty('hard');
  returned.add(name);
  return result;
}

describe('every tool returns structured content that fits its output schema', () => {
  it('through a whole working session, then soft failures', async () => {
    const invite = await call(ada, 'create_room');
    await call(bob, 'join_code', { code: invite.code });
    const room = (await call(ada, 'join_room', { name: 'outputs-room' })).room_id;
    await call(bob, 'join_room', { name: room });
    await call(ada, 'get_current_room');
    await call(ada, 'check_repo');
    await call(ada, 'initialize_repo', { room: 'outputs-repo' });
    await call(ada, 'resume_room_session');
    await call(ada, 'get_onboarding_status');
    const adaWorker = (await call(ada, 'register_agent_session', { room_id: room, registration_key: 'outputs-ada-4f7a9c2e81d6b035', display_name: 'Alder' })).worker_id;
    const bobWorker = (await call(bob, 'register_agent_session', { room_id: room, registration_key: 'outputs-bob-4f7a9c2e81d6b035', display_name: 'Birch' })).worker_id;
    const asAda = { worker_id: adaWorker };
    const asBob = { worker_id: bobWorker };

    const first = await call(ada, 'send_message', { ...asAda, text: '@Birch first' });
    await call(bob, 'send_thread_message', { ...asBob, text: 'in the thread', thread_parent_id: first.id });
    await call(bob, 'read_messages', { ...asBob, limit: 5 });
    await call(bob, 'wait_for_messages', { ...asBob, timeout: 1_000 });
    await call(ada, 'search_messages', { ...asAda, query: 'first' });
    await call(ada, 'get_message_status', { ...asAda, message_id: first.id });
    await call(ada, 'post_status', { ...asAda, status: 'working on outputs' });
    await call(ada, 'post_reasoning', { ...asAda, summary: 'checking outputs', milestone: 'halfway' });

    const task = (await call(ada, 'add_task', { ...asAda, title: 'Check the outputs' })).task.id;
    await call(bob, 'update_task', { ...asBob, task_id: task, status: 'accepted' });
    await call(ada, 'claim_task', { ...asAda, task_id: task });
    await call(ada, 'get_board', asAda);
    await call(ada, 'publish_room_artifact', { ...asAda, task_id: task, artifact: { provider: 'github', kind: 'pull_request', number: 7 } });
    await call(ada, 'get_room_artifacts', { ...asAda, task_id: task });
    await call(ada, 'complete_task', { ...asAda, task_id: task, pr_url: 'https://github.com/acme/outputs/pull/7' });
    await call(bob, 'claim_task_review', { ...asBob, task_id: task });
    await call(bob, 'release_task_review', { ...asBob, task_id: task });

    const second = (await call(bob, 'add_task', { ...asBob, title: 'Hand me over' })).task.id;
    await call(ada, 'update_task', { ...asAda, task_id: second, status: 'accepted' });
    await call(ada, 'claim_task', { ...asAda, task_id: second });
    const bobSessionKey = (await call(bob, 'post_status', { ...asBob, status: 'ready' })).agent_identity.agent_key;
    await call(ada, 'handoff_task_lease', { ...asAda, task_id: second, target_agent_key: bobSessionKey });
    await call(bob, 'release_task_lease', { ...asBob, task_id: second });

    await call(ada, 'remember_room_fact', { ...asAda, client_id: 'outputs-fact', title: 'Outputs', body: 'Checked by the client.', category: 'decision' });
    await call(ada, 'get_room_memory', asAda);
    await call(ada, 'request_human_input', { ...asAda, client_id: 'outputs-ask', title: 'Ship?', body: 'Ready to ship.', category: 'approval' });
    await call(ada, 'get_human_requests', asAda);

    const start = await call(ada, 'start_device_auth');
    github.approve();
    app.advance(start.interval);
    expect(await call(ada, 'poll_device_auth')).toMatchObject({ status: 'authorized' });
    await call(ada, 'clear_saved_auth');

    // A tool the session above does not call brings its own good call.
    for (const tool of allTools.filter((t) => !returned.has(t.name) && t.name !== 'disconnect_agent_session')) {
      const good = GOOD_CALLS[tool.name];
      expect(good, `${tool.name} is never called here: add GOOD_CALLS.${tool.name} to test/mcp/tools/toolCases.ts (a good call and what its result holds), so its result is checked against its output schema`).toBeDefined();
      expect(await call(ada, tool.name, good.args({ room_id: room, ...asAda })), tool.name).toMatchObject(good.result);
    }

    await call(ada, 'disconnect_agent_session', asAda);
    const { tools } = await ada.client.listTools();
    expect(tools.map((t) => t.name)).toEqual(allTools.map((t) => t.name));
    expect([...returned].sort()).toEqual(allTools.map((t) => t.name).sort());

    // Soft failures are results too, and fit the same schemas.
    const fresh = await app.connect({ cwd: null });
    for (const [name, args] of [
      ['read_messages', {}], ['get_board', {}], ['claim_task', { task_id: 'task_999', room_id: room }], ['join_room', {}], ['resume_room_session', {}],
      ['get_room_memory', { room_id: 'no-such-room' }], ['poll_device_auth', {}],
    ] as const) {
      expect(await fresh.call(name, args), name).toMatchObject({ success: false, error: expect.any(String) });
    }
  });
});
