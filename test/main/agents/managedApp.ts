// A running app (core, gateway with the agent socket, the app API's dispatcher) whose managed
// agents run the REAL provider CLI from node_modules against a fake model server on
// loopback: the model is the only fake. The person acts through the dispatcher, as the UI.
import { mkdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import type { Clock } from '../../../src/main/agents/clock';
import { createApiImplementation, createDispatcher, type Dispatch } from '../../../src/main/api';
import { ensureRoom } from '../../../src/main/domain/rooms/rooms';
import { startAppHost, type AppHost } from '../../../src/main/host';
import { createMemorySecretStore, type MemorySecretStore } from '../../../src/main/secrets/memorySecretStore';
import type { MethodName } from '../../../src/shared/bridge';
import type { MethodInput, MethodOutput } from '../../../src/shared/contract';
import type { TurnView } from '../../../src/shared/types';
import { ensureCliBuilt, privateTempDir, tempDir } from '../../support';
import { pinnedCliBin } from '../../support/pinnedClis';
import { startFakeModel, type FakeModel, type FakeProvider } from '../../support/fakeModels';
import { waitUntil } from '../../support/waitUntil';

export interface ManagedApp {
  readonly host: AppHost;
  readonly model: FakeModel;
  readonly secrets: MemorySecretStore;
  readonly dataDir: string;
  readonly home: string;
  /** A folder the agents work in. */
  readonly folder: string;
  call<M extends MethodName>(method: M, input: MethodInput<M>): Promise<MethodOutput<M>>;
  /** Calls a method that must fail; returns its error message. */
  fail(method: MethodName, input: unknown): Promise<string>;
  room(roomId: string): Promise<void>;
  /** Waits until the agent's newest turn is `number` and has ended (60 s unless told); returns it. */
  turnEnded(agentId: string, number: number, timeoutMs?: number): Promise<TurnView>;
  turns(agentId: string): Promise<TurnView[]>;
  /** Closes the app (not the fake model), e.g. to restart on the same data folder. */
  stopApp(): Promise<void>;
  close(): Promise<void>;
}

export interface ManagedAppOptions {
  readonly provider: FakeProvider;
  /** Reuse an earlier app's folders (a restart). */
  readonly from?: ManagedApp;
  readonly managedTurns?: { maxConcurrent?: number; timeLimitMs?: number; rateLimitBackoffMs?: number[]; reconnectLimitMs?: number };
  /** How long one agent's turn of a person's @all lasts at most (default 90 s). */
  readonly turnWaitMs?: number;
  /** The app's clock (schedules, usage-limit resets, backoffs); default the system's. */
  readonly clock?: Clock;
  /** Changes the app's environment (e.g. drops the provider's key: not signed in); `folder` is the agents' folder. */
  readonly env?: (env: NodeJS.ProcessEnv, paths: { folder: string }) => NodeJS.ProcessEnv;
}

/** The provider CLIs are devDependencies: a folder of links to them (the app skips the checkout's node_modules/.bin). */
export const CLI_BIN = pinnedCliBin();

export async function startManagedApp(options: ManagedAppOptions): Promise<ManagedApp> {
  await ensureCliBuilt();
  const home = options.from?.home ?? tempDir('la-managed-home-');
  // Gemini CLI skips a system settings file below a world-writable folder such as /tmp.
  const dataDir = options.from?.dataDir ?? join(options.provider === 'gemini' ? privateTempDir(join(homedir(), '.cache', 'letagents-tests'), 'la-managed-') : tempDir('la-managed-'), 'data');
  const folder = options.from?.folder ?? join(tempDir('la-managed-work-'), 'project');
  mkdirSync(folder, { recursive: true });
  const model = options.from?.model ?? (await startFakeModel(options.provider, home));
  const secrets = options.from?.secrets ?? createMemorySecretStore();
  const full: NodeJS.ProcessEnv = { ...process.env, ...model.env, PATH: `${CLI_BIN}:${process.env.PATH ?? ''}` };
  const env = options.env ? options.env(full, { folder }) : full;
  const host = await startAppHost({ dataDir, env, home, secrets, managedTurns: options.managedTurns, clock: options.clock, turnWaitMs: options.turnWaitMs });
  const dispatch: Dispatch = createDispatcher(createApiImplementation(host.app, { env }));
  let appClosed = false;
  const app: ManagedApp = {
    host,
    model,
    secrets,
    dataDir,
    home,
    folder,
    async call(method, input) {
      const result = await dispatch(method, input);
      if (!result.ok) throw new Error(`${method} failed: ${result.error.code} ${result.error.message}`);
      return result.value as never;
    },
    async fail(method, input) {
      const result = await dispatch(method, input);
      if (result.ok) throw new Error(`${method} should have failed`);
      return result.error.message;
    },
    async room(roomId) {
      await host.app.core.store.write((tx) => ensureRoom(tx, { roomId, kind: 'named' }));
    },
    async turns(agentId) {
      return (await app.call('agents.activity', { agentId, limit: 50 })).turns;
    },
    async turnEnded(agentId, number, timeoutMs = 60_000) {
      let turn: TurnView | undefined;
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        turn = (await app.turns(agentId)).find((t) => t.number === number);
        if (turn && turn.status !== 'running') return turn;
        if (Date.now() > deadline) throw new Error(`turn ${number} of ${agentId} did not end: ${JSON.stringify(turn)}`);
        await new Promise((r) => setTimeout(r, 25));
      }
    },
    async stopApp() {
      if (appClosed) return;
      appClosed = true;
      await host.close();
    },
    async close() {
      await app.stopApp();
      if (!options.from) await model.close();
    },
  };
  return app;
}

export { waitUntil };
