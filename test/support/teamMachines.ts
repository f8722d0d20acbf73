// Two machines of one team, for the cross-machine tests and benchmarks (issue 12): app
// instances with separate data folders, each knowing the team "acme" (one throwaway
// PostgreSQL database) through LETAGENTS_TEAM_URL_ACME, with acme as the default place, so
// every room an agent joins by name is the team's. A machine is the app core in this
// process behind the real agent socket (the test reads its roster and acts as its person
// through the app API's one dispatcher), or a real `serve` process (for a kill). Every
// agent is a real `letagents-desktop mcp` helper process.
import { createApp, type App } from '../../src/main/app';
import { createApiImplementation, createDispatcher, type Dispatch } from '../../src/main/api';
import { startGateway, type Gateway } from '../../src/main/gateway';
import { createMemorySecretStore } from '../../src/main/secrets/memorySecretStore';
import { placeKey } from '../../src/main/domain/placeKeys';
import { connectHelper, type HelperClient, type HelperOptions } from './clients';
import { ensureCliBuilt } from './cli';
import { tempDataDir, tempDir } from './processes';
import { startServe, type ServeHandle } from './serve';
import { setDefaultPlace, TEAM, teamEnv } from './teams';
import { waitUntil } from './waitUntil';

export { TEAM, teamEnv };

/** A data folder whose default place is the team (as `letagents-desktop team default acme` sets it). */
export async function teamDataDir(): Promise<string> {
  const dataDir = tempDataDir();
  await setDefaultPlace(dataDir, TEAM);
  return dataDir;
}

export interface Machine {
  readonly name: string;
  readonly dataDir: string;
  /** A new agent connection on this machine: one more helper process. */
  connect(options?: HelperOptions): Promise<HelperClient>;
  close(): Promise<void>;
}

export interface InProcessMachine extends Machine {
  readonly app: App;
  readonly gateway: Gateway;
  /** The app API as the window calls it: {ok, value} or {ok:false, error}. */
  readonly api: Dispatch;
}

/**
 * Waits until `machine` shows the team session listening: its wait is in flight there (an act
 * meant to meet the wait, not the call on its way in, comes after this, not after a fixed pause).
 */
export function waitInFlight(machine: InProcessMachine, sessionId: string): Promise<void> {
  const { reachability } = machine.app.hub.delivery;
  return waitUntil(() => reachability.state(placeKey(TEAM, sessionId)) === 'listening', 15_000, `the wait of ${sessionId} in flight on ${machine.name}`);
}

function connections(dataDir: string, name: string) {
  const clients: HelperClient[] = [];
  let n = 0;
  return {
    connect: async (options: HelperOptions = {}) => {
      const client = await connectHelper(dataDir, { clientName: `${name}-chat-${++n}`, ...options });
      clients.push(client);
      return client;
    },
    closeAll: () => Promise.all(clients.map((c) => c.close().catch(() => undefined))),
  };
}

/** What sets a machine apart beyond its data folder (a managed agent's CLI needs its model's environment and home). */
export interface MachineOptions {
  /** Added to the app's environment. */
  readonly env?: NodeJS.ProcessEnv;
  readonly home?: string;
  /** Its name as the team's other machines see it (two apps on one computer would share the host name). */
  readonly machineName?: string;
  /** A closed machine's data folder: its app starts again on it. */
  readonly dataDir?: string;
}

/** A machine whose app runs in this process, on the real agent socket. */
export async function inProcessMachine(name: string, url: string, options: MachineOptions = {}): Promise<InProcessMachine> {
  await ensureCliBuilt();
  const dataDir = options.dataDir ?? (await teamDataDir());
  const env = { ...process.env, ...options.env, ...teamEnv(url) };
  const app = createApp({ dataDir, secrets: createMemorySecretStore(), home: options.home ?? tempDir(), env, machineName: options.machineName });
  const gateway = await startGateway({ dataDir, handler: app.hub, http: false });
  const conns = connections(dataDir, name);
  return {
    name,
    dataDir,
    app,
    gateway,
    api: createDispatcher(createApiImplementation(app, { env })),
    connect: conns.connect,
    close: async () => {
      await conns.closeAll();
      await gateway.close();
      await app.close();
    },
  };
}

export interface ServedMachine extends Machine {
  readonly serve: ServeHandle;
}

/** A machine whose app is a real `serve` process. */
export async function servedMachine(name: string, url: string): Promise<ServedMachine> {
  await ensureCliBuilt();
  const dataDir = await teamDataDir();
  const serve = await startServe({ dataDir, env: teamEnv(url) });
  const conns = connections(dataDir, name);
  return {
    name,
    dataDir,
    serve,
    connect: conns.connect,
    close: async () => {
      await conns.closeAll();
      await serve.stop().catch(() => undefined);
    },
  };
}
