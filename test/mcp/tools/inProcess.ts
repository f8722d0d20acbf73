// In-process MCP connections for the cases a helper against `serve` cannot reach yet:
// GitHub sign-in (serve runs without it for now), a clock the test moves past poll
// intervals, and people's actions (archive, delete). Same hub, real SQLite in a temp
// folder (and in the team variant the suite's team database, test/support/place.ts), the
// official SDK client over an in-memory transport.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createAuthService, type AuthService } from '../../../src/main/auth/authService';
import { createCore, type Core } from '../../../src/main/core';
import { createMcpConnectionHandler, type McpHub } from '../../../src/main/mcp';
import type { ToolProfile } from '../../../src/main/mcp/connection';
import { createMemorySecretStore, type MemorySecretStore } from '../../../src/main/secrets/memorySecretStore';
import { APP_VERSION } from '../../../src/main/version';
import { createTeams, type Teams } from '../../../src/main/teams';
import { createPlaces } from '../../../src/main/teams/places';
import type { Storage } from '../../../src/main/store/port';
import { tempDataDir, tempDir } from '../../support';
import { preparePlace, TEST_PLACE, type PlacedApp } from '../../support/place';
import { callTool, type Agent } from './harness';

export interface InProcessApp extends PlacedApp {
  readonly core: Core;
  readonly teams: Teams;
  /** The storage of the suite's place: where its rooms are. */
  storage(): Promise<Storage>;
  readonly hub: McpHub;
  readonly auth: AuthService | null;
  readonly secrets: MemorySecretStore;
  /** Moves the auth service's clock forward. */
  advance(seconds: number): void;
  connect(options?: { cwd?: string | null; clientName?: string; toolProfile?: ToolProfile }): Promise<Agent & { close(): Promise<void> }>;
  close(): Promise<void>;
}

/**
 * A core + MCP hub in this process; with `githubEnv`, GitHub sign-in over an in-memory
 * keychain; with `waitProgressMs`, wait_for_messages' progress interval shortened.
 */
export async function startInProcessApp(options: { githubEnv?: NodeJS.ProcessEnv; waitProgressMs?: number } = {}): Promise<InProcessApp> {
  const dataDir = tempDataDir();
  const place = await preparePlace(dataDir);
  const core = createCore({ dataDir });
  const secrets = createMemorySecretStore();
  const teams = createTeams({ store: core.store, secrets, env: { ...process.env, ...place.env }, bus: core.bus, dataDir });
  const places = createPlaces(core.store, teams.registry, teams.connections);
  let offsetMs = 0;
  const auth = options.githubEnv
    ? createAuthService({ store: core.store, secrets, version: APP_VERSION, env: options.githubEnv, now: () => Date.now() + offsetMs, osUserName: () => 'ospat' })
    : null;
  const hub = createMcpConnectionHandler(core, {
    version: APP_VERSION,
    places,
    ...(auth ? { auth } : {}),
    ...(options.waitProgressMs ? { waitProgressMs: options.waitProgressMs } : {}),
  });
  let count = 0;
  const open: Array<() => Promise<void>> = [];
  return {
    core,
    hub,
    auth,
    secrets,
    teams,
    dataDir,
    teamUrl: place.teamUrl,
    storage: () => places.get(TEST_PLACE),
    advance: (seconds) => {
      offsetMs += seconds * 1000;
    },
    async connect({ cwd, clientName = 'claude-code', toolProfile } = {}) {
      const id = `in-process-${++count}`;
      const server = hub.open({ id, transport: 'socket', cwd: cwd === undefined ? tempDir('la-cwd-') : cwd, ideHint: null, toolProfile });
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      await server.connect(serverSide);
      const client = new Client({ name: clientName, version: '1.0.0' });
      await client.connect(clientSide);
      const close = async () => {
        await client.close();
        hub.closed(id);
      };
      open.push(close);
      // Listing the tools makes the client check every result against its outputSchema.
      await client.listTools();
      const call = (name: string, args: Record<string, unknown> = {}) => callTool(client, name, args);
      // Tools wait for the connection's auto-join; waiting here too means closing the app
      // never races an auto-join still reading the database.
      await call('get_current_room');
      return { client, call, close };
    },
    async close() {
      for (const close of open.splice(0)) await close().catch(() => undefined);
      auth?.cancel();
      await hub.close();
      await teams.close();
      await core.close();
    },
  };
}
