// The official MCP conformance suite (@modelcontextprotocol/conformance, server mode) against
// a real `serve`'s /mcp, through the test-only bearer proxy (the runner cannot send the
// agent token; /mcp keeps its token, Host and Origin checks). Every scenario passes except
// those in expected-failures.txt, which cannot apply to this server; a listed scenario
// that starts to pass fails the test too, so the list stays true.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, repoRoot, startBearerProxy, tempDir, track, type BearerProxy, type ServeHandle } from '../../support';
import { probe } from '../../support/httpProbe';
import { startApp } from '../tools/harness';

const PACKAGE_DIR = join(repoRoot, 'node_modules', '@modelcontextprotocol', 'conformance');
/** The runner's own bin entry, run with this project's Node 22 (process.execPath under npm test). */
const RUNNER = join(PACKAGE_DIR, (JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { bin: Record<string, string> }).bin.conformance);

let serve: ServeHandle;
let proxy: BearerProxy;

beforeAll(async () => {
  serve = await startApp();
  proxy = await startBearerProxy(serve);
});

afterAll(async () => {
  await proxy?.close();
  await serve?.stop();
  await cleanupSpawned();
});

/** The scenarios expected to fail, from expected-failures.txt (each line: name, then the reason). */
function expectedFailures(): Map<string, string> {
  const text = readFileSync(join(import.meta.dirname, 'expected-failures.txt'), 'utf8');
  const entries = text
    .split('\n')
    .filter((line) => line.trim() !== '' && !line.startsWith('#'))
    .map((line) => /^(\S+)\s+(.+)$/.exec(line.trim()));
  for (const entry of entries) expect(entry, 'every expected failure has a reason').not.toBeNull();
  return new Map(entries.map((entry) => [entry![1], entry![2]]));
}

/** Runs the whole active suite with this project's Node; returns each scenario's failed checks. */
async function runSuite(url: string): Promise<Map<string, string[]>> {
  const out = tempDir('la-conformance-');
  const child = track(spawn(process.execPath, [RUNNER, 'server', '--url', url, '-o', out], { cwd: out, stdio: ['ignore', 'pipe', 'pipe'] }));
  let log = '';
  child.stdout!.on('data', (d) => (log += d));
  child.stderr!.on('data', (d) => (log += d));
  await new Promise((resolve) => child.once('close', resolve));
  const results = new Map<string, string[]>();
  for (const dir of readdirSync(out)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T/.exec(dir)?.[1];
    if (!scenario) continue;
    const checks = JSON.parse(readFileSync(join(out, dir, 'checks.json'), 'utf8')) as Array<{ id: string; status: string; errorMessage?: string }>;
    results.set(scenario, checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? ''}`));
  }
  expect(results.size, `the runner reported no scenario:\n${log}`).toBeGreaterThan(0);
  return results;
}

describe('MCP conformance suite, server mode', () => {
  it('is the pinned version', () => {
    expect((JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version).toBe('0.1.16');
  });

  it('passes every scenario that applies; the others are exactly the expected failures', async () => {
    const expected = expectedFailures();
    const results = await runSuite(proxy.mcpUrl);
    const failed = [...results].filter(([, failures]) => failures.length > 0);
    const unexpected = failed.filter(([scenario]) => !expected.has(scenario));
    expect(unexpected, 'scenarios that should pass').toEqual([]);
    const stale = [...expected.keys()].filter((scenario) => !failed.some(([name]) => name === scenario));
    expect(stale, 'expected failures that passed or did not run: remove them from expected-failures.txt').toEqual([]);
    // The features the suite checks directly, and that this server offers.
    const passed = [...results].filter(([, failures]) => failures.length === 0).map(([scenario]) => scenario);
    expect(passed).toEqual(
      expect.arrayContaining([
        'server-initialize', 'ping', 'tools-list', 'tools-call-error', 'logging-set-level', 'completion-complete',
        'resources-list', 'resources-subscribe', 'resources-unsubscribe', 'prompts-list', 'server-sse-multiple-streams', 'dns-rebinding-protection',
      ]),
    );
  }, 180_000);

  it('the token is added by the proxy only: /mcp itself still refuses a request without it', async () => {
    const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'probe', version: '1' } } });
    const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const answer = await probe(serve.port, { method: 'POST', path: '/mcp', headers, body: initialize });
    expect(answer.status).toBe(401);
  });
});
