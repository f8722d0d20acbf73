// The running apps the worker-handle acceptance tests talk to: a real `serve` process,
// or the app core in this test process behind the real agent socket (for what the agent
// protocol cannot show: a person's actions in the app, presence, memory-only tokens).
// Either way every connection is a real `letagents-desktop mcp` helper process. Their rooms
// are in the suite's place (test/support/place.ts): this computer's, or a team's database.
import { createApp, type App } from '../../../src/main/app';
import { createApiImplementation, createDispatcher } from '../../../src/main/api';
import { startGateway, type Gateway } from '../../../src/main/gateway';
import { createMemorySecretStore } from '../../../src/main/secrets/memorySecretStore';
import {
  cleanupSpawned,
  connectHelper,
  ensureCliBuilt,
  startServe,
  tempDataDir,
  tempDir,
  type HelperClient,
  type HelperOptions,
  type ServeHandle,
} from '../../support';
import { call, type Reply } from './tools';
import { placeKey } from '../../../src/main/domain/placeKeys';
import { getSession } from '../../../src/main/domain/sessions/sessions';
import { preparePlace, TEST_PLACE, type PlacedApp } from '../../support/place';

interface Connections extends PlacedApp {
  /** A new connection: one more helper process. */
  connect(options?: HelperOptions): Promise<HelperClient>;
  /** join_room on `client`'s connection (creating the room if missing); returns its id. */
  room(client: HelperClient, name: string): Promise<string>;
}

export interface ServedApp extends Connections {
  serve: ServeHandle;
  close(): Promise<void>;
}

export interface InProcessApp extends Connections {
  readonly app: App;
  readonly gateway: Gateway;
  /**
   * Test-only read of the memory-only bindings (worker-handles.md §1): every token
   * currently bound. Nothing in the product exposes them; this is how the token scan
   * learns the values it must never find anywhere.
   */
  boundTokens(): string[];
  /** The session key of a session of the suite's place (the bindings' key). */
  key(sessionId: string): string;
  /** Whether the app shows the session online (its bindings; in a team room also other apps' heartbeats). */
  online(sessionId: string): Promise<boolean>;
  close(): Promise<void>;
}

function connections(dataDir: string) {
  const clients: HelperClient[] = [];
  let n = 0;
  return {
    clients,
    connect: async (options: HelperOptions = {}) => {
      const client = await connectHelper(dataDir, { clientName: `chat-host-${++n}`, ...options });
      clients.push(client);
      return client;
    },
    room: async (client: HelperClient, name: string) => {
      const reply = await call(client, 'join_room', { name });
      if (!reply.room_id) throw new Error(`join_room failed: ${JSON.stringify(reply)}`);
      return reply.room_id as string;
    },
    closeAll: async () => {
      await Promise.all(clients.map((c) => c.close().catch(() => undefined)));
    },
  };
}

/** A real `letagents-desktop serve` in a fresh data folder, its rooms in the suite's place. */
export async function startServedApp(): Promise<ServedApp> {
  await ensureCliBuilt();
  const dataDir = tempDataDir();
  const place = await preparePlace(dataDir);
  const serve = await startServe({ dataDir, env: place.env });
  const conns = connections(serve.dataDir);
  return {
    serve,
    dataDir: serve.dataDir,
    teamUrl: place.teamUrl,
    connect: conns.connect,
    room: conns.room,
    close: async () => {
      await conns.closeAll();
      await serve.stop();
      await cleanupSpawned();
    },
  };
}

/** createApp in this process, served on the real agent socket (no HTTP), its rooms in the suite's place. */
export async function startInProcessApp(options: { turnWaitMs?: number } = {}): Promise<InProcessApp> {
  await ensureCliBuilt();
  const dataDir = tempDataDir();
  const place = await preparePlace(dataDir);
  const app = createApp({ dataDir, secrets: createMemorySecretStore(), home: tempDir(), env: { ...process.env, ...place.env }, turnWaitMs: options.turnWaitMs });
  const gateway = await startGateway({ dataDir, handler: app.hub, http: false });
  const conns = connections(dataDir);
  const bindings = (app.hub.bindings as unknown as { bindings: Map<string, { token: string }> }).bindings;
  return {
    app,
    gateway,
    dataDir,
    teamUrl: place.teamUrl,
    connect: conns.connect,
    room: conns.room,
    boundTokens: () => [...bindings.values()].map((b) => b.token),
    key: (sessionId) => placeKey(TEST_PLACE, sessionId),
    online: async (sessionId) => {
      const row = await (await app.places.get(TEST_PLACE)).read((q) => getSession(q, sessionId));
      return !!row && app.hub.isOnline(TEST_PLACE, row);
    },
    close: async () => {
      await conns.closeAll();
      await gateway.close();
      await app.close();
      await cleanupSpawned();
    },
  };
}

/** The person acting in `app` through its API, as the UI does, in the suite's place; throws on a refusal. */
export function personIn(app: App): (method: string, input: Record<string, unknown>) => Promise<Reply> {
  const dispatch = createDispatcher(createApiImplementation(app));
  return async (method, input) => {
    const result = await dispatch(method as never, { place: TEST_PLACE, ...input } as never);
    if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
    return result.value;
  };
}
