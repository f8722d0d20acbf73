// Shared set-up for the per-tool MCP tests: a real `serve` per test file (its rooms in the
// suite's place: this computer, or in the team variant a team's PostgreSQL database),
// agents as real `letagents-desktop mcp` helper processes driven by the SDK client, result
// helpers that check the soft/hard split of mcp-tools.md §2.1 and that every result's
// structuredContent is its text document (the client checks it against the tool's
// outputSchema), a read-only look at the rooms' database to prove bad input changed
// nothing, and throwaway git repositories.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { expect } from 'vitest';
import {
  connectHelper, BACKGROUND_WRITE_TABLES, ensureCliBuilt, startServe, tempDataDir, tempDir, whileStopped, type HelperClient, type HelperOptions, type ServeHandle,
  type StartServeOptions,
} from '../../support';
import { placeRows, placeTables, preparePlace, type PlacedApp } from '../../support/place';

/** A hard failure (isError: true, the phrase as the text). */
export interface Hard {
  readonly hard: string;
}

export type Outcome = Record<string, any> | Hard; // eslint-disable-line @typescript-eslint/no-explicit-any

export interface Agent {
  readonly client: Client;
  /** Calls a tool; a normal result is its parsed JSON document, a hard failure is {hard: text}. */
  call(name: string, args?: Record<string, unknown>): Promise<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/**
 * Makes calls that reach the app together, as a client's parallel tool calls do on an idle
 * machine: the agent's helper is held (whileStopped) while its client writes them into the
 * helper's stdin, so once it goes on it reads them in one chunk and passes them to the app in
 * one write. Without this, on a loaded machine the helper may pass the first call on before
 * the client wrote the others, and a lone message is a wake of its own (issue 38): a test of
 * a burst would then depend on how the machine schedules the helper.
 */
export async function callsTogether<T>(agent: Agent, start: () => Array<Promise<T>>): Promise<T[]> {
  const pid = (agent.client as HelperClient).helperPid;
  if (!pid) throw new Error('callsTogether needs an agent connected through a helper');
  const calls = await whileStopped([pid], async () => {
    const started = start();
    // A call's frame is written into the pipe once its request path (microtasks only) has run.
    await new Promise((resolve) => setImmediate(resolve));
    return started;
  });
  return Promise.all(calls);
}

/** A real `serve` in a fresh data folder, its rooms in the suite's place (this computer's, or the team variant's team database). */
export async function startApp(options: StartServeOptions = {}): Promise<ServeHandle & PlacedApp> {
  await ensureCliBuilt();
  const dataDir = options.dataDir ?? tempDataDir();
  const place = await preparePlace(dataDir);
  const serve = await startServe({ ...options, dataDir, env: { ...options.env, ...place.env } });
  return Object.assign(serve, { teamUrl: place.teamUrl });
}

/**
 * Connects an agent through a helper; its working directory is a fresh empty folder unless
 * given. It lists the tools once, so its client checks every result against the tool's outputSchema.
 */
export async function connectAgent(serve: ServeHandle, options: HelperOptions = {}): Promise<Agent> {
  const client = await connectHelper(serve.dataDir, { cwd: options.cwd ?? tempDir('la-cwd-'), ...options });
  await client.listTools();
  return { client, call: (name, args = {}) => callTool(client, name, args) };
}

export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Outcome> {
  const result = (await client.callTool({ name, arguments: args })) as {
    content: Array<{ type: string; text: string }>;
    structuredContent?: unknown;
    isError?: boolean;
  };
  expect(result.content, `${name} returns one text item`).toHaveLength(1);
  expect(result.content[0].type).toBe('text');
  const text = result.content[0].text;
  if (result.isError) return { hard: text };
  const json = JSON.parse(text) as Record<string, unknown>;
  // §2.1: pretty-printed with 2-space indentation; the same document as structuredContent.
  expect(text, `${name} result is pretty-printed JSON`).toBe(JSON.stringify(json, null, 2));
  expect(result.structuredContent, `${name} structuredContent`).toEqual(json);
  return json;
}

/** Asserts a hard failure with exactly this phrase. */
export function expectHard(outcome: Outcome, phrase: string | RegExp): void {
  expect(outcome, `expected the hard error ${phrase}`).toHaveProperty('hard');
  const text = (outcome as Hard).hard;
  if (typeof phrase === 'string') expect(text).toBe(phrase);
  else expect(text).toMatch(phrase);
}

/** Asserts a soft failure {success:false, error:<phrase>, ...}. */
export function expectSoft(outcome: Outcome, phrase: string, extra: Record<string, unknown> = {}): void {
  expect(outcome, `expected the soft error "${phrase}"`).not.toHaveProperty('hard');
  expect(outcome).toMatchObject({ success: false, error: phrase, ...extra });
}

export const W7 = 'Unknown worker_id for this account and API. Create a worker for this chat or explicitly resume its saved handle.';
export const FORGED_WORKER_ID = `worker_${'ab'.repeat(16)}`;
export const MALFORMED_WORKER_ID = 'worker_not-a-handle';

/** The task object and lease object of mcp-tools.md §6. */
export const TASK_KEYS = [
  'active_leases', 'assignee', 'assignee_agent_instance_id', 'assignee_agent_key', 'assignee_agent_session_id', 'created_at', 'created_by', 'description',
  'id', 'pr_url', 'source_message_id', 'status', 'title', 'updated_at', 'workflow_artifacts', 'workflow_refs',
];
export const LEASE_KEYS = ['agent_key', 'agent_session_id', 'created_at', 'holder_label', 'id', 'kind', 'status', 'updated_at'];
let keyCounter = 0;
/** Registers a durable worker in `roomId` (joining it first); returns its worker_id and session. */
export async function registerWorker(agent: Agent, roomId: string, displayName?: string) {
  const joined = await agent.call('join_room', { name: roomId });
  expect(joined.room_id, JSON.stringify(joined)).toBeTruthy();
  const reg = await agent.call('register_agent_session', {
    room_id: joined.room_id,
    registration_key: `key-${process.pid}-${Date.now()}-${++keyCounter}-4f7a9c2e81d6b035`,
    ...(displayName ? { display_name: displayName } : {}),
  });
  expect(reg.success, JSON.stringify(reg)).toBe(true);
  return { workerId: reg.worker_id as string, session: reg.agent_session, roomId: joined.room_id as string };
}

/**
 * What a tool call could have changed: the row count of every table (but those the app writes
 * in the background whatever the call did, BACKGROUND_WRITE_TABLES: receipts, heartbeats), every room's counters, and the state of tasks, leases, sessions, facts, requests and artifacts.
 * Read from the database that holds the suite's rooms, next to the running app.
 */
export async function dbState(app: PlacedApp): Promise<Record<string, unknown>> {
  const all = (sql: string) => placeRows(app, sql);
  const counts: Record<string, unknown> = {};
  for (const t of (await placeTables(app)).filter((name) => !BACKGROUND_WRITE_TABLES.has(name))) counts[t] = (await placeRows<{ n: number }>(app, `SELECT count(*) AS n FROM "${t}"`))[0].n;
  return {
    counts,
    rooms: await all(
      'SELECT room_id, kind, archived_at, next_message_number, next_task_number, next_fact_number, next_request_number, next_artifact_number FROM rooms ORDER BY room_id',
    ),
    tasks: await all('SELECT room_id, number, status, title, assignee_agent_key, pr_url, workflow_artifacts_json FROM tasks ORDER BY room_id, number'),
    leases: await all('SELECT lease_id, status FROM task_leases ORDER BY lease_id'),
    sessions: await all('SELECT session_id, status, status_text, ended_at FROM agent_sessions ORDER BY session_id'),
    facts: await all('SELECT room_id, number, title, body FROM room_facts ORDER BY room_id, number'),
    requests: await all('SELECT room_id, number, title, status FROM human_requests ORDER BY room_id, number'),
    artifacts: await all('SELECT room_id, number, artifact_json FROM room_artifacts ORDER BY room_id, number'),
  };
}

/** Runs `bad` and asserts that the database looks exactly as before. */
export async function expectUnchanged<T>(app: PlacedApp, bad: () => Promise<T>): Promise<T> {
  const before = await dbState(app);
  const result = await bad();
  expect(await dbState(app)).toEqual(before);
  return result;
}

/** A git repository with one commit on `main` and the given origin (none when null). */
export function makeRepo(origin: string | null = 'git@github.com:Acme/Widget.git', config?: unknown): string {
  const dir = tempDir('la-repo-');
  const git = (...args: string[]) => execFileSync('git', args, { cwd: dir, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('-c', 'user.name=Test', '-c', 'user.email=test@example.com', 'commit', '-q', '--allow-empty', '-m', 'initial');
  if (origin) git('remote', 'add', 'origin', origin);
  if (config !== undefined) writeFileSync(join(dir, '.letagents.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return dir;
}

/** The message ids of a read or wait result. */
export const ids = (result: { messages: Array<{ id: string }> }) => result.messages.map((m) => m.id);
