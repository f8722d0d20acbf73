// Hostile input (issue 9 §4, architecture.md §5 "every MCP tool input is validated; bad
// input gets a clear error and changes nothing"): every tool of the interactive_desktop
// surface, as listed by tools/list, gets adversarial and random values in every
// parameter. Each call must end in a result or a clear error (a hard isError phrase or a
// soft {success:false, error}), never a crash or an internal error, and a call that
// fails must leave the store exactly as it was (row counts of every table and every
// room's counters). Runs in this process over in-memory MCP transports for speed; the
// values still pass through JSON as on a real connection.
import fc from 'fast-check';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanupSpawned, tempDir } from '../support';
import { consistencyProblems, integrityProblems, storeSnapshot } from './lib/dbChecks';
import { baselineArgs, FUZZ_ROOM, startFuzzWorld, type FuzzWorld } from './lib/fuzzWorld';
import { HOSTILE_VALUES, hostileValuesFor, valueFor, type PropertySchema } from './lib/hostileValues';
import { callTool, isPhrase, PHRASES } from './lib/mcpCalls';
import { reliabilitySeed } from './lib/random';
import { rawDbOf } from '../support/storage';

const SEED = reliabilitySeed(0x5eed_0004);
const RUNS_PER_TOOL = 30;

let world: FuzzWorld;
let tools: Array<{ name: string; properties: Record<string, PropertySchema> }>;
let baseline: Record<string, Record<string, unknown>>;
const unexpectedLogs: string[] = [];
const counts = { table: 0, property: 0, failedCalls: 0 };

const startedIn = process.cwd();

beforeAll(async () => {
  // Fuzzed relative cwd values (".", "..") resolve against this process's folder: keep that
  // far from any git repository, so initialize_repo can never write into the project.
  process.chdir(tempDir());
  // A tool that blew up logs "tool failed unexpectedly"; collect instead of printing.
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => void unexpectedLogs.push(args.map(String).join(' ').slice(0, 500)));
  world = await startFuzzWorld();
  tools = (await world.a.listTools()).tools.map((t) => ({ name: t.name, properties: (t.inputSchema.properties ?? {}) as Record<string, PropertySchema> }));
  baseline = baselineArgs(world);
}, 60_000);

afterAll(async () => {
  await world?.close();
  process.chdir(startedIn);
  vi.restoreAllMocks();
  await cleanupSpawned();
});

type FuzzOutcome = Awaited<ReturnType<typeof callTool>> | { kind: 'cancelled' };

/** A call as an agent would make it (through JSON); a wait is cancelled by the client after 30 ms. */
async function send(client: Client, tool: string, args: unknown): Promise<FuzzOutcome> {
  const wire = JSON.parse(JSON.stringify(args ?? {})) as Record<string, unknown>;
  const controller = new AbortController();
  const timer = tool === 'wait_for_messages' ? setTimeout(() => controller.abort(), 30) : undefined;
  try {
    const result = (await client.callTool({ name: tool, arguments: wire }, undefined, { signal: controller.signal, timeout: 30_000 })) as {
      content: Array<{ text: string }>;
      isError?: boolean;
    };
    const text = result.content[0]?.text ?? '';
    if (result.isError) return { kind: 'hard', text };
    const doc = JSON.parse(text) as Record<string, unknown>;
    return doc.success === false ? { kind: 'soft', doc, error: String(doc.error) } : { kind: 'ok', doc };
  } catch (error) {
    if (controller.signal.aborted) return { kind: 'cancelled' };
    return { kind: 'lost', message: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** A fuzzed call may have ended worker A or handed it to another connection: A takes it back. */
async function prepare(): Promise<void> {
  const bound = world.app.hub.bindings.binding(world.sessionA);
  const ended = rawDbOf(world.app.core.store).prepare('SELECT ended_at FROM agent_sessions WHERE session_id = ?').get(world.sessionA) as { ended_at: string | null };
  if (bound?.connectionId !== world.connectionA || ended.ended_at !== null) {
    const reg = await callTool(world.a, 'register_agent_session', { worker_id: world.workerA, room_id: FUZZ_ROOM });
    if (reg.kind !== 'ok') throw new Error(`could not restore worker A: ${JSON.stringify(reg)}`);
  }
  await world.app.core.store.drain();
}

/** Answers that mean the call never got past worker A's identity: a baseline must not end in one. */
const IDENTITY_FAILURES = [PHRASES.W12, PHRASES.W13, PHRASES.W14, 'Unknown worker_id'];

/** What is wrong with one call's outcome; empty when it is a result or a clear error that changed nothing. */
async function attempt(client: Client, tool: string, args: unknown, label: string): Promise<string[]> {
  return (await attemptWithOutcome(client, tool, args, label)).problems;
}

async function attemptWithOutcome(client: Client, tool: string, args: unknown, label: string): Promise<{ problems: string[]; outcome: FuzzOutcome }> {
  await prepare();
  const db = rawDbOf(world.app.core.store);
  const before = storeSnapshot(db);
  const outcome = await send(client, tool, args);
  await world.app.core.store.drain();
  const where = `${tool} with ${label}`;
  if (outcome.kind === 'lost') return { outcome, problems: [`${where}: the call itself failed: ${outcome.message.slice(0, 300)}`] };
  if (outcome.kind === 'ok' || outcome.kind === 'cancelled') return { outcome, problems: [] };
  counts.failedCalls++;
  const text = outcome.kind === 'hard' ? outcome.text : outcome.error;
  const problems: string[] = [];
  if (text.trim() === '' || text === 'undefined') problems.push(`${where}: an empty error`);
  if (/Internal error|TypeError|ReferenceError|RangeError|SQLITE_|\n\s+at \S+ \(/.test(text)) problems.push(`${where}: not a clear error: ${text.slice(0, 300)}`);
  if (storeSnapshot(db) !== before) problems.push(`${where}: failed (${text.slice(0, 120)}) but changed the store`);
  return { outcome, problems };
}

describe('every MCP tool under hostile input', () => {
  it('answers each adversarial value in each parameter with a result or a clear error, changing nothing on error', async () => {
    const problems: string[] = [];
    for (const tool of tools) {
      const base = baseline[tool.name] ?? {};
      // The unchanged baseline first: it must reach the tool itself, or the rest would only test the identity checks.
      const first = await attemptWithOutcome(world.a, tool.name, base, 'the baseline');
      problems.push(...first.problems);
      if (first.outcome.kind === 'hard' && isPhrase(first.outcome.text, ...IDENTITY_FAILURES)) problems.push(`${tool.name}: the baseline stops at ${first.outcome.text}`);
      const variants: Array<[string, Record<string, unknown>]> = [
        ['no arguments', {}],
        ['an unknown extra parameter', { ...base, forged_field: '<script>alert(1)</script>' }],
      ];
      for (const [prop, schema] of Object.entries(tool.properties)) {
        for (const [name, value] of hostileValuesFor(schema)) variants.push([`${prop} = ${name}`, { ...base, [prop]: value }]);
      }
      for (const [label, args] of variants) {
        problems.push(...(await attempt(world.a, tool.name, args, label)));
        counts.table++;
      }
      // The app still answers normally after each tool's barrage.
      expect((await callTool(world.a, 'get_current_room', {})).kind).toBe('ok');
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it('survives random arguments for every tool (fast-check), from two kinds of connection', async () => {
    const problems: string[] = [];
    for (const [index, tool] of tools.entries()) {
      const argsArb = fc.record(
        Object.fromEntries(Object.entries(tool.properties).map(([key, schema]) => [key, valueFor(schema)])),
        { requiredKeys: [] },
      );
      // Identity fields sometimes carry the real handles, so the tool body runs, not just the checks.
      const identity = fc.constantFrom(
        {},
        { worker_id: world.workerA, room_id: FUZZ_ROOM },
        { agent_session_id: world.sessionA },
        { worker_id: world.workerB, room_id: FUZZ_ROOM },
        { room_id: FUZZ_ROOM },
      );
      await fc.assert(
        fc.asyncProperty(fc.boolean(), identity, argsArb, async (useA, who, random) => {
          const args = { ...who, ...random };
          const found = await attempt(useA ? world.a : world.c, tool.name, args, JSON.stringify(args).slice(0, 200));
          counts.property++;
          problems.push(...found);
          return found.length === 0;
        }),
        { numRuns: RUNS_PER_TOOL, seed: SEED + index, endOnFailure: true },
      );
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it('finds the words around a NUL byte in a search, instead of failing', async () => {
    // Found by this fuzz: FTS5 read the query as a C string and stopped at the NUL.
    const outcome = await callTool(world.a, 'search_messages', { worker_id: world.workerA, room_id: FUZZ_ROOM, query: 'hello\u0000 Bay' });
    expect(outcome.kind).toBe('ok');
    const matches = (outcome.kind === 'ok' ? outcome.doc.matches : []) as Array<{ snippet: string }>;
    expect(matches.map((m) => m.snippet)).toContain('**hello** from **Bay**');
  });

  it('leaves a consistent store, no unexpected failure in the log and no polluted prototype', () => {
    const db = rawDbOf(world.app.core.store);
    expect([...integrityProblems(db), ...consistencyProblems(db)]).toEqual([]);
    expect(unexpectedLogs).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    console.info(
      `hostile input: ${tools.length} tools; ${counts.table} table cases (${HOSTILE_VALUES.length} adversarial values, by type, × every parameter) and ` +
        `${counts.property} fast-check cases; ${counts.failedCalls} calls failed, each with a clear error and the store unchanged (seed ${SEED})`,
    );
  });
});
