// The B13 room script (issue 18): five agents looping on wait_for_messages while a fixed
// round runs — two joins, a status post each, three tasks proposed, accepted by the person,
// claimed, sent to review, reviewed and done, one @mention, a thread of three replies, and
// one human message. Each step names, per agent, the routing reason it should get; the
// bench counts wakes against it and test/mcp/wakeScript.test.ts asserts it.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, type Json } from './agents';

export const SCRIPT_AGENTS = ['Ash', 'Birch', 'Cedar', 'Dune', 'Elm'] as const;
export type ScriptAgent = (typeof SCRIPT_AGENTS)[number];

/** What an agent's routing should decide for a message: activate (wanted) or stay silent. */
export interface Expected {
  readonly reason: string;
  readonly activate: boolean;
}

export interface ScriptMessage {
  readonly id: string;
  readonly step: string;
  /** Per agent looping when the message was posted. */
  readonly expected: ReadonlyMap<ScriptAgent, Expected>;
}

/** One wait_for_messages result of an agent's loop. */
export interface WaitResult {
  readonly delivered: ReadonlyArray<{ id: string; reason: string }>;
  readonly skipped: readonly string[];
}

export interface ScriptIo {
  /** A new MCP connection (one stdio helper process) for the named agent. */
  connect(name: ScriptAgent): Promise<Client>;
  /** Calls the app API as the person, as the UI does; returns the method's value or throws. */
  person(method: string, input: Json): Promise<unknown>;
  /** Runs after every step (the bench lets every waiter settle; tests need not). */
  settle(): Promise<void>;
}

export interface ScriptRun {
  readonly messages: readonly ScriptMessage[];
  /** Every result each agent's loop got after its first (cursor-less) call. */
  readonly results: ReadonlyMap<ScriptAgent, readonly WaitResult[]>;
}

const WAIT_TIMEOUT_MS = 30_000;
const act = (reason: string): Expected => ({ reason, activate: true });
const quiet = (reason: string): Expected => ({ reason, activate: false });

interface Looper {
  readonly client: Client;
  readonly workerId: string;
  cursor: string | null;
  readonly results: WaitResult[];
  readonly abort: AbortController;
  done: Promise<void>;
  failed: boolean;
}

/** Runs one round of the script in `roomId` and stops every loop once all got its last message. */
export async function runWakeScript(io: ScriptIo, roomId: string): Promise<ScriptRun> {
  const loopers = new Map<ScriptAgent, Looper>();
  const messages: ScriptMessage[] = [];
  const looping = () => [...loopers.keys()];
  const call = (agent: ScriptAgent, name: string, args: Json = {}) => callTool(loopers.get(agent)!.client, name, { worker_id: loopers.get(agent)!.workerId, ...args });
  /** Records the newest message with what each looping agent should get; `rule` decides per agent. */
  const record = async (step: string, by: ScriptAgent | null, rule: (agent: ScriptAgent) => Expected) => {
    const id = await newestId(loopers.get(by ?? looping()[0])!.client, roomId);
    messages.push({ id, step, expected: new Map(looping().map((a) => [a, a === by ? quiet('self_message') : rule(a)])) });
    await io.settle();
    return id;
  };

  const register = async (agent: ScriptAgent) => {
    const client = await io.connect(agent);
    await callTool(client, 'join_room', { name: roomId });
    const reg = await callTool(client, 'register_agent_session', { room_id: roomId, registration_key: `wake-script-${roomId}-${agent}`, display_name: agent });
    return { client, workerId: String(reg.worker_id), cursor: null, results: [], abort: new AbortController(), done: Promise.resolve(), failed: false } as Looper;
  };
  const startLoop = async (agent: ScriptAgent, looper: Looper) => {
    // The first call (no cursor) returns at once and gives the cursor; it is not a wake.
    looper.cursor = String((await callTool(looper.client, 'wait_for_messages', { worker_id: looper.workerId, timeout: 1_000 })).last_observed_message_id);
    loopers.set(agent, looper);
    looper.done = (async () => {
      while (!looper.abort.signal.aborted) {
        let result: Json;
        try {
          result = await callTool(looper.client, 'wait_for_messages', { worker_id: looper.workerId, after_message_id: looper.cursor, timeout: WAIT_TIMEOUT_MS }, WAIT_TIMEOUT_MS + 10_000, looper.abort.signal);
        } catch (error) {
          if (looper.abort.signal.aborted) return;
          looper.failed = true;
          throw error;
        }
        const delivered = (result.messages as Json[]).map((m) => ({ id: String(m.id), reason: String((m.activation as { for_current_agent: Json }).for_current_agent.reason) }));
        looper.results.push({ delivered, skipped: (result.skipped_message_ids as string[] | undefined) ?? [] });
        looper.cursor = String(result.last_observed_message_id);
      }
    })();
    looper.done.catch(() => undefined); // awaited at the end of the run
  };

  try {
    // Ash, Birch and Cedar are in the room before the round starts.
    const first: Array<[ScriptAgent, Looper]> = [];
    for (const agent of ['Ash', 'Birch', 'Cedar'] as const) first.push([agent, await register(agent)]);
    for (const [agent, looper] of first) await startLoop(agent, looper);
    await io.settle();

    for (const joiner of ['Dune', 'Elm'] as const) {
      const looper = await register(joiner);
      await record(`${joiner} joins`, null, () => quiet('system_noise'));
      await startLoop(joiner, looper);
    }

    for (const agent of SCRIPT_AGENTS) {
      await call(agent, 'post_status', { status: `${agent} reading the board` });
      await record(`${agent} posts a status`, agent, () => quiet('system_noise'));
    }

    const tasks = [
      { proposer: 'Ash', holder: 'Dune', reviewer: 'Birch', title: 'Fix the login redirect' },
      { proposer: 'Birch', holder: 'Elm', reviewer: 'Cedar', title: 'Add search to the board' },
      { proposer: 'Cedar', holder: 'Ash', reviewer: 'Dune', title: 'Document the agent socket' },
    ] as const;
    const ids: string[] = [];
    for (const t of tasks) {
      const added = await call(t.proposer, 'add_task', { title: t.title });
      ids.push(String((added.task as Json).id));
      await record(`${t.proposer} proposes ${ids.at(-1)}`, t.proposer, () => quiet('system_noise'));
    }
    const concerns = (...who: ScriptAgent[]) => (a: ScriptAgent) => (who.includes(a) ? act('system_event') : quiet('system_noise'));
    for (const [i, t] of tasks.entries()) {
      await io.person('tasks.accept', { roomId, number: Number(ids[i].slice(5)) });
      await record(`the person accepts ${ids[i]}`, null, concerns(t.proposer));
    }
    for (const [i, t] of tasks.entries()) {
      await call(t.holder, 'claim_task', { task_id: ids[i] });
      await record(`${t.holder} claims ${ids[i]}`, t.holder, concerns(t.proposer));
    }
    for (const [i, t] of tasks.entries()) {
      await call(t.holder, 'complete_task', { task_id: ids[i] });
      await record(`${t.holder} sends ${ids[i]} to review`, t.holder, concerns(t.proposer));
    }
    for (const [i, t] of tasks.entries()) {
      await call(t.reviewer, 'claim_task_review', { task_id: ids[i] });
      await record(`${t.reviewer} reviews ${ids[i]}`, t.reviewer, concerns());
    }
    for (const [i, t] of tasks.entries()) {
      await call(t.reviewer, 'update_task', { task_id: ids[i], status: 'done' });
      await record(`${t.reviewer} marks ${ids[i]} done`, t.reviewer, concerns(t.proposer, t.holder));
    }

    await call('Ash', 'send_message', { text: '@Cedar could you look at the flaky CI job?' });
    await record('Ash mentions Cedar', 'Ash', (a) => (a === 'Cedar' ? act('explicit_mention') : quiet('explicit_other_mention')));

    const root = String((await call('Birch', 'send_message', { text: 'Design question: do we keep SQLite for the local store?' })).id);
    await record('Birch starts a thread', 'Birch', () => quiet('unaddressed'));
    await call('Cedar', 'send_thread_message', { thread_parent_id: root, text: 'Yes, WAL mode covers our load.' });
    await record('Cedar replies in the thread', 'Cedar', (a) => (a === 'Birch' ? act('reply_target') : quiet('other_reply_target')));
    const reply2 = String((await call('Dune', 'send_thread_message', { thread_parent_id: root, text: 'Agreed; PostgreSQL only for team rooms.' })).id);
    await record('Dune replies in the thread', 'Dune', (a) =>
      a === 'Birch' ? act('reply_target') : a === 'Cedar' ? act('thread_participant') : quiet('other_reply_target'));
    await call('Birch', 'send_thread_message', { thread_parent_id: reply2, text: 'Settled then, thanks both.' });
    await record('Birch replies to Dune in the thread', 'Birch', (a) =>
      a === 'Dune' ? act('reply_target') : a === 'Cedar' ? act('thread_participant') : quiet('other_reply_target'));

    // Issue 34: in a room of five, a person's message that names nobody, with no conversation
    // going and no single task holder, wakes nobody (the person is told whom to mention).
    await io.person('messages.send', { roomId, text: 'Who is free tomorrow?' });
    await record('the person asks nobody in particular', null, () => quiet('nobody_named'));
    // A "thank you" every agent may read at once: the room answers @all all at once (issue 34's
    // default, one agent at a time, is B20's; this script's wakes stay comparable with before).
    await io.person('rooms.setReplyToAll', { roomId, mode: 'all_at_once' });
    await io.person('messages.send', { roomId, text: '@all Nice work today.' });
    const last = await record('the person thanks everyone', null, () => act('broadcast'));

    // Every agent's loop ends with the last message (it wakes all of them).
    const lastNumber = Number(last.slice(4));
    const until = Date.now() + WAIT_TIMEOUT_MS;
    while ([...loopers.values()].some((l) => !l.failed && Number(l.cursor?.slice(4)) < lastNumber) && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    for (const looper of loopers.values()) looper.abort.abort();
    await Promise.allSettled([...loopers.values()].map((l) => l.done));
  }
  for (const looper of loopers.values()) await looper.done; // a loop that failed fails the run
  return { messages, results: new Map([...loopers].map(([agent, l]) => [agent, l.results])) };
}

async function newestId(client: Client, roomId: string): Promise<string> {
  const read = await callTool(client, 'read_messages', { room_id: roomId, limit: 1 });
  return String((read.messages as Json[])[0].id);
}
