// A whole app on a temporary data folder, driven through the real dispatcher the way the UI
// calls it: an in-memory keychain, the fake GitHub, a temporary HOME for agent configs,
// agents as real MCP clients connected to the app's hub, and the UI events it pushes.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, expect } from 'vitest';
import type { Clock } from '../../../src/main/agents/clock';
import { createApp, type App } from '../../../src/main/app';
import { createApiImplementation, createDispatcher, eventsForUi, uiEventsSettled, type ApiHost, type Dispatch } from '../../../src/main/api';
import { ensureRoom } from '../../../src/main/domain/rooms/rooms';
import { createMemorySecretStore, type MemorySecretStore } from '../../../src/main/secrets/memorySecretStore';
import type { ApiErrorBody, MethodName } from '../../../src/shared/bridge';
import type { MethodInput, MethodOutput } from '../../../src/shared/contract';
import type { AppEvent } from '../../../src/shared/events';
import { startFakeGitHub, type FakeGitHub } from '../../support/fakeGitHub';
import { toolJson, toolText } from '../../support/clients';
import { rawDbOf } from '../../support/storage';
import { waitUntil } from '../../support/waitUntil';

export const HELPER = { command: '/usr/bin/node', args: ['/opt/letagents/bin/letagents-desktop.js', 'mcp'] };

export interface TestAgent {
  /** The agent's MCP client, for what tool() hides (the raw result). */
  readonly client: Client;
  readonly name: string;
  readonly workerId: string;
  readonly sessionId: string;
  readonly agentKey: string;
  readonly roomId: string;
  /** Calls a room tool as this worker (worker_id added); throws on a hard failure. */
  tool<T = Record<string, unknown>>(name: string, args?: Record<string, unknown>): Promise<T>;
  close(): Promise<void>;
}

export interface ApiHarness {
  readonly app: App;
  readonly dispatch: Dispatch;
  readonly github: FakeGitHub;
  readonly secrets: MemorySecretStore;
  readonly dataDir: string;
  readonly home: string;
  /** Every UI event pushed since the harness started (or since `events.length = 0`). */
  readonly events: AppEvent[];
  /** Failures the dispatcher logged as unexpected (bugs, outputs that break the contract). */
  readonly unexpected: string[];
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  /** Calls a method that must fail; returns its error. */
  fail(method: string, input: unknown): Promise<ApiErrorBody>;
  /** Every row of every table, to prove a refused call changed nothing. */
  snapshot(): string;
  room(roomId: string): Promise<void>;
  agent(roomId: string, name: string, ide?: string): Promise<TestAgent>;
  /** Waits (up to 5 s) until `check` holds, e.g. for an event a background look-up pushes. */
  waitFor(check: () => boolean, what: string): Promise<void>;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface HarnessOptions {
  host?: ApiHost;
  env?: Record<string, string>;
  /** Another harness's data folder: the app restarted on the same data. */
  dataDir?: string;
  /** The app's clock (schedules, caches of GitHub answers); default the system's. */
  clock?: Clock;
}

export async function setUpApi(options: HarnessOptions = {}): Promise<ApiHarness> {
  const github = await startFakeGitHub();
  cleanups.push(() => github.close());
  const dataDir = options.dataDir ?? tempDir('letagents-api-');
  const home = tempDir('letagents-api-home-');
  const secrets = createMemorySecretStore();
  const env = { ...github.env(), PATH: '', ...options.env };
  const app = createApp({ dataDir, secrets, env, home, helperCommand: HELPER, clock: options.clock });
  cleanups.push(() => app.close());
  const unexpected: string[] = [];
  // A method that broke the contract (or threw a bare error) fails its test even if the test expected a failure.
  cleanups.push(() => expect(unexpected, 'unexpected failures logged by the dispatcher').toEqual([]));
  const dispatch = createDispatcher(createApiImplementation(app, { env, ...options.host }), {
    onUnexpected: (method, error) => unexpected.push(`${method}: ${error instanceof Error ? error.message : String(error)}`),
  });
  const events: AppEvent[] = [];
  cleanups.push(eventsForUi(app)((event) => events.push(event)));
  let connections = 0;

  const harness: ApiHarness = {
    app,
    dispatch,
    github,
    secrets,
    dataDir,
    home,
    events,
    unexpected,
    async call(method, input) {
      const result = await dispatch(method, input);
      await uiEventsSettled(app);
      if (!result.ok) throw new Error(`${method} failed: ${result.error.code} ${result.error.message} ${unexpected.join('; ')}`);
      return result.value as never;
    },
    async fail(method, input) {
      const result = await dispatch(method, input);
      await uiEventsSettled(app);
      expect(result.ok, `${method} should have failed`).toBe(false);
      return (result as { ok: false; error: ApiErrorBody }).error;
    },
    snapshot() {
      const db = rawDbOf(app.core.store);
      const tables = db
        .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'messages_fts%' ORDER BY name")
        .pluck()
        .all() as string[];
      const dump: Record<string, string[]> = {};
      for (const table of tables) dump[table] = (db.prepare(`SELECT * FROM "${table}"`).all() as unknown[]).map((r) => JSON.stringify(r)).sort();
      return JSON.stringify(dump);
    },
    async room(roomId) {
      await app.core.store.write((tx) => ensureRoom(tx, { roomId, kind: 'named' }));
      await uiEventsSettled(app);
    },
    async agent(roomId, name, ide = 'claude-code') {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      const connectionId = `test${++connections}`;
      const server = app.hub.open({ id: connectionId, transport: 'socket', cwd: null, ideHint: null });
      await server.connect(serverSide);
      const client = new Client({ name: ide, version: '1.0.0' });
      await client.connect(clientSide);
      const raw = async (tool: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name: tool, arguments: args });
        await uiEventsSettled(app);
        if (result.isError) throw new Error(`${tool}: ${toolText(result)}`);
        return toolJson(result) as Record<string, unknown>;
      };
      await raw('join_room', { name: roomId });
      const registered = (await raw('register_agent_session', { room_id: roomId, registration_key: `key-${name}-${connectionId}-4f7a9c2e81d6b035`, display_name: name })) as {
        worker_id: string;
        agent_session: { session_id: string; agent_key: string; display_name: string };
      };
      const close = async () => {
        await client.close();
        app.hub.closed(connectionId);
      };
      cleanups.push(() => client.close().catch(() => undefined));
      return {
        client,
        name: registered.agent_session.display_name,
        workerId: registered.worker_id,
        sessionId: registered.agent_session.session_id,
        agentKey: registered.agent_session.agent_key,
        roomId,
        tool: (tool, args = {}) => raw(tool, { worker_id: registered.worker_id, ...args }) as never,
        close,
      };
    },
    waitFor: (check, what) => waitUntil(check, 15_000, what),
  };
  return harness;
}

/** The events of one type, for assertions. */
export function eventsOf<T extends AppEvent['type']>(events: readonly AppEvent[], type: T): Extract<AppEvent, { type: T }>[] {
  return events.filter((e): e is Extract<AppEvent, { type: T }> => e.type === type);
}
