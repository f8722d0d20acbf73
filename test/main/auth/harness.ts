// Sets up an auth service against the fake GitHub: a real SQLite store, an in-memory
// keychain (or the real one), a clock the test moves, and the auth.changed events seen.
import { afterEach } from 'vitest';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { EventBus } from '../../../src/main/events/bus';
import { TestStorage } from '../../support/storage';
import { createAuthService, type AuthService } from '../../../src/main/auth/authService';
import { createMemorySecretStore, type MemorySecretStore } from '../../../src/main/secrets/memorySecretStore';
import type { SecretStore } from '../../../src/main/secrets/secretStore';
import { startFakeGitHub, type FakeGitHub } from '../../support/fakeGitHub';

export const APP_VERSION = (JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

export interface Harness {
  github: FakeGitHub;
  auth: AuthService;
  store: TestStorage;
  secrets: SecretStore;
  memory: MemorySecretStore;
  events: string[];
  /** Moves the clock forward by `seconds`. */
  advance(seconds: number): void;
  now(): number;
  dataDir: string | null;
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

export async function setUp(options: { env?: NodeJS.ProcessEnv; secrets?: SecretStore; dataDir?: boolean; osUser?: string; timeoutMs?: number } = {}): Promise<Harness> {
  const github = await startFakeGitHub();
  cleanups.push(() => github.close());
  const dataDir = options.dataDir ? mkdtempSync(join(tmpdir(), 'letagents-auth-')) : null;
  if (dataDir) cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  const bus = new EventBus();
  const store = new TestStorage({ path: dataDir ? join(dataDir, 'letagents.db') : ':memory:', bus });
  cleanups.push(() => store.close());
  const events: string[] = [];
  bus.on('auth.changed', (e) => events.push(e.type));
  const memory = createMemorySecretStore();
  const secrets = options.secrets ?? memory;
  let t = Date.parse('2026-05-01T09:00:00.000Z');
  const auth = createAuthService({
    store,
    secrets,
    version: APP_VERSION,
    env: options.env ?? github.env(),
    now: () => t,
    osUserName: () => options.osUser ?? 'ospat',
    timeoutMs: options.timeoutMs,
  });
  return { github, auth, store, secrets, memory, events, advance: (s) => (t += s * 1000), now: () => t, dataDir };
}

/** Runs the whole device flow to a signed-in account. */
export async function signIn(h: Harness): Promise<string> {
  const started = await h.auth.startDeviceAuth();
  if (!started.success) throw new Error(`sign-in did not start: ${started.error}`);
  h.github.approve();
  h.advance(started.interval);
  const { result } = await h.auth.pollDeviceAuth();
  if (!result.success || !('status' in result) || result.status !== 'authorized') throw new Error(`sign-in failed: ${JSON.stringify(result)}`);
  return h.github.issuedTokens.at(-1) as string;
}
