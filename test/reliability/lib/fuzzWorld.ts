// The app core in this test process for the hostile-input tests: createApp with an
// in-memory keychain, no GitHub client id and no network, and MCP clients linked to it
// in memory (no socket, so thousands of calls stay fast). It seeds a world the fuzzed
// calls can aim at: two rooms, two workers, messages, tasks in several states, a fact,
// a request and an artifact.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createApp, type App } from '../../../src/main/app';
import { createMemorySecretStore } from '../../../src/main/secrets/memorySecretStore';
import { tempDataDir, tempDir } from '../../support';
import { mustCall, registerWorker } from './mcpCalls';

export const FUZZ_ROOM = 'fuzzing-room';
export const OTHER_ROOM = 'second-room';
/** The world's delivery limit: the longest allowed, so no "Needs you" item of the app's own lands mid-run. */
export const FUZZ_UNANSWERED_AFTER_SECONDS = 86_400;

export interface FuzzWorld {
  readonly app: App;
  /** Holds worker A in FUZZ_ROOM (the identity most fuzzed calls use). */
  readonly a: Client;
  /** Holds worker B in FUZZ_ROOM. */
  readonly b: Client;
  /** No worker, no room: the identity-less paths. */
  readonly c: Client;
  readonly workerA: string;
  /** A's connection id (the MCP hub's name for it). */
  readonly connectionA: string;
  readonly workerB: string;
  readonly sessionA: string;
  readonly agentKeyB: string;
  close(): Promise<void>;
}

export async function startFuzzWorld(): Promise<FuzzWorld> {
  const app = createApp({
    dataDir: tempDataDir(),
    secrets: createMemorySecretStore(),
    env: {},
    home: tempDir(),
    fetch: () => Promise.reject(new Error('the hostile-input tests never reach the network')),
  });
  // The seeded reply (Bay to Ash's message) would raise a "not picked up" item once the limit
  // (2 min by default) passes: a write of the app's own, landing in whatever call runs then, so
  // a slow run (the API fuzz at load 20) saw a refused teams.add "change the store". A day is
  // longer than any run.
  await app.hub.delivery.settings.update({ unansweredAfterSeconds: FUZZ_UNANSWERED_AFTER_SECONDS });
  let n = 0;
  // A and B connect like HTTP sessions (no working directory), C like a helper in a folder.
  const connect = async (cwd: string | null) => {
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    const server = app.hub.open({ id: `fuzz-${++n}`, transport: cwd ? 'socket' : 'http', cwd, ideHint: null });
    await server.connect(serverSide);
    const client = new Client({ name: `fuzz-agent-${n}`, version: '1.0.0' });
    await client.connect(clientSide);
    return client;
  };
  const [a, b, c] = [await connect(null), await connect(null), await connect(tempDir())];

  await mustCall(a, 'join_room', { name: OTHER_ROOM });
  await mustCall(a, 'join_room', { name: FUZZ_ROOM });
  const workerA = await registerWorker(a, { room_id: FUZZ_ROOM, registration_key: 'fuzz-worker-a-4f7a9c2e81d6b035', display_name: 'Ash' });
  const workerB = await registerWorker(b, { room_id: FUZZ_ROOM, registration_key: 'fuzz-worker-b-4f7a9c2e81d6b035', display_name: 'Bay' });
  const asA = { worker_id: workerA.workerId };
  const asB = { worker_id: workerB.workerId };
  await mustCall(a, 'send_message', { ...asA, text: 'hello from Ash' });
  await mustCall(b, 'send_message', { ...asB, text: 'hello from Bay', reply_to: 'msg_3' });
  // task_1 held by A (in progress), task_2 in review with A holding it, task_3 proposed by A.
  for (const title of ['Fuzz one', 'Fuzz two', 'Fuzz three']) await mustCall(a, 'add_task', { ...asA, title });
  for (const id of ['task_1', 'task_2']) {
    await mustCall(b, 'update_task', { ...asB, task_id: id, status: 'accepted' });
    await mustCall(a, 'claim_task', { ...asA, task_id: id });
  }
  await mustCall(a, 'update_task', { ...asA, task_id: 'task_1', status: 'in_progress' });
  await mustCall(a, 'complete_task', { ...asA, task_id: 'task_2' });
  await mustCall(a, 'remember_room_fact', { ...asA, client_id: 'fuzz-fact-1', title: 'Stack', body: 'SQLite', category: 'decision' });
  await mustCall(a, 'request_human_input', { ...asA, client_id: 'fuzz-req-1', title: 'Which?', body: 'Pick one', category: 'question' });
  await mustCall(a, 'publish_room_artifact', { ...asA, artifact: { provider: 'github', kind: 'issue', number: 1 }, task_id: 'task_1' });

  return {
    app,
    a,
    b,
    c,
    workerA: workerA.workerId,
    connectionA: 'fuzz-1',
    workerB: workerB.workerId,
    sessionA: workerA.sessionId,
    agentKeyB: workerB.agentKey,
    close: async () => {
      await Promise.all([a, b, c].map((client) => client.close()));
      await app.close();
    },
  };
}

/**
 * A valid call of each tool, as worker A where it takes one: the fuzz varies one part at a
 * time. room_id is explicit because fuzzed registrations may give A sessions in other rooms.
 */
export function baselineArgs(world: FuzzWorld): Record<string, Record<string, unknown>> {
  const asA = { worker_id: world.workerA, room_id: FUZZ_ROOM };
  return {
    join_code: { code: 'ABCD-1234' },
    join_room: { name: FUZZ_ROOM },
    resume_room_session: { room_id: FUZZ_ROOM },
    initialize_repo: { room: 'fuzz-init' },
    register_agent_session: { ...asA },
    disconnect_agent_session: { ...asA },
    send_message: { ...asA, text: 'fuzz says hi' },
    send_thread_message: { ...asA, text: 'in thread', thread_parent_id: 'msg_3' },
    read_messages: { ...asA, limit: 5 },
    wait_for_messages: { ...asA, after_message_id: 'msg_1', timeout: 1_000 },
    search_messages: { ...asA, query: 'hello' },
    post_status: { ...asA, status: 'fuzzing' },
    post_reasoning: { ...asA, summary: 'looking around' },
    add_task: { ...asA, title: 'Fuzzed task' },
    get_board: { ...asA },
    claim_task: { ...asA, task_id: 'task_1' },
    update_task: { ...asA, task_id: 'task_1', status: 'in_progress' },
    complete_task: { ...asA, task_id: 'task_1' },
    claim_task_review: { ...asA, task_id: 'task_3' },
    release_task_review: { ...asA, task_id: 'task_3' },
    release_task_lease: { ...asA, task_id: 'task_2' },
    handoff_task_lease: { ...asA, task_id: 'task_2', target_agent_key: world.agentKeyB },
    get_room_artifacts: { ...asA },
    publish_room_artifact: { ...asA, artifact: { provider: 'github', kind: 'pull_request', number: 2 } },
    get_room_memory: { ...asA },
    remember_room_fact: { ...asA, client_id: 'fuzz-fact-2', title: 'Term', body: 'A word', category: 'term' },
    request_human_input: { ...asA, client_id: 'fuzz-req-2', title: 'May I?', body: 'Approve', category: 'approval' },
    get_human_requests: { ...asA },
  };
}
