// Hostile input to the app API (issue 9 §4, architecture.md §4–5): every method of the
// UI contract, through the one dispatcher both bridges use, gets adversarial and random
// values in every field. Each call answers {ok:true} or {ok:false, error:{code, message}}
// with a clear message (never the "internal" failure), and a refused call leaves the
// store exactly as it was. Values pass through JSON as they do over IPC and WebSocket.
import fc from 'fast-check';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contract } from '../../src/shared/contract';
import { METHOD_NAMES, type ApiResult } from '../../src/shared/bridge';
import { createApiImplementation, createDispatcher, type Dispatch } from '../../src/main/api';
import { cleanupSpawned } from '../support';
import { consistencyProblems, integrityProblems, storeSnapshot } from './lib/dbChecks';
import { FUZZ_ROOM, FUZZ_UNANSWERED_AFTER_SECONDS, startFuzzWorld, type FuzzWorld } from './lib/fuzzWorld';
import { HOSTILE_VALUES, hostileValuesFor, valueFor, type PropertySchema } from './lib/hostileValues';
import { reliabilitySeed } from './lib/random';
import { rawDbOf } from '../support/storage';

const SEED = reliabilitySeed(0x5eed_0005);
const RUNS_PER_METHOD = 40;

let world: FuzzWorld;
let dispatch: Dispatch;
const unexpected: string[] = [];
const opened: string[] = [];
const counts = { table: 0, property: 0, refused: 0 };

/** A valid input per method (rooms, tasks and facts of the seeded world); the fuzz varies one field at a time. */
const BASELINE: Record<string, Record<string, unknown>> = {
  // Creating opens the room of that name when it exists: the baseline makes one room, once.
  'rooms.create': { name: 'Fuzzed room', place: 'local' },
  'rooms.rename': { roomId: FUZZ_ROOM, name: 'Fuzzing room' },
  'rooms.archive': { roomId: FUZZ_ROOM, archived: false },
  'rooms.pin': { roomId: FUZZ_ROOM, pinned: true },
  'rooms.setReplyToAll': { roomId: FUZZ_ROOM, mode: 'in_turn' },
  'rooms.markRead': { roomId: FUZZ_ROOM, number: 2 },
  'rooms.export': { roomId: FUZZ_ROOM, format: 'json' },
  // Deleting is fuzzed against a room that does not exist, so the world stays.
  'rooms.delete': { roomId: 'no-such-room' },
  'messages.timeline': { roomId: FUZZ_ROOM, limit: 20 },
  'messages.thread': { roomId: FUZZ_ROOM, rootNumber: 3 },
  'messages.send': { roomId: FUZZ_ROOM, text: 'a person says hi' },
  'messages.preview': { roomId: FUZZ_ROOM, text: 'and the tests?' },
  'messages.search': { roomId: FUZZ_ROOM, query: 'hello' },
  'messages.searchAll': { query: 'hello' },
  'tasks.board': { roomId: FUZZ_ROOM },
  'tasks.get': { roomId: FUZZ_ROOM, number: 1 },
  'tasks.create': { roomId: FUZZ_ROOM, title: 'A person task' },
  'tasks.move': { roomId: FUZZ_ROOM, number: 3, to: 'accepted' },
  'tasks.accept': { roomId: FUZZ_ROOM, number: 3 },
  'tasks.cancel': { roomId: FUZZ_ROOM, number: 3 },
  'tasks.handoff': { roomId: FUZZ_ROOM, number: 1, toAgentKey: 'nobody/worker-0' },
  'tasks.releaseWork': { roomId: FUZZ_ROOM, number: 1 },
  'tasks.releaseReview': { roomId: FUZZ_ROOM, number: 2 },
  'workers.list': { roomId: FUZZ_ROOM },
  'workers.rename': { sessionId: 'local_0', name: 'Renamed' },
  'workers.disconnect': { sessionId: 'local_0' },
  'workers.remove': { sessionId: 'local_0' },
  'workers.wakes': { sessionId: 'local_0' },
  // Managed agents are fuzzed against a room and an agent that do not exist: no CLI ever starts.
  'agents.add': { provider: 'claude_code', folder: '/', roomId: 'no-such-room', name: 'Fuzzed', permissions: 'read_only' },
  'agents.pause': { agentId: 'agent_missing' },
  'agents.resume': { agentId: 'agent_missing' },
  'agents.stop': { agentId: 'agent_missing' },
  'agents.runNow': { agentId: 'agent_missing' },
  'agents.remove': { agentId: 'agent_missing' },
  'agents.activity': { agentId: 'agent_missing' },
  'agents.changes': { agentId: 'agent_missing' },
  'agents.merge': { agentId: 'agent_missing' },
  'agents.update': { agentId: 'agent_missing' },
  'agents.askToRedo': { agentId: 'agent_missing' },
  'agents.discard': { agentId: 'agent_missing' },
  'agents.openFolder': { agentId: 'agent_missing' },
  // Automations are fuzzed against a room and an automation that do not exist: nothing runs.
  'automations.add': { name: 'Fuzzed', roomId: 'no-such-room', target: { kind: 'mention', handle: 'agents' }, instructions: 'Say hi.', trigger: { type: 'task_blocked' } },
  'automations.edit': { automationId: 'auto_missing', name: 'Renamed' },
  'automations.pause': { automationId: 'auto_missing' },
  'automations.resume': { automationId: 'auto_missing' },
  'automations.runNow': { automationId: 'auto_missing' },
  'automations.remove': { automationId: 'auto_missing' },
  'automations.runs': { automationId: 'auto_missing' },
  // An approval that does not exist: nothing waits on it.
  'approvals.decide': { number: 999, decision: 'deny' },
  'needsYou.answer': { item: { kind: 'request', roomId: FUZZ_ROOM, number: 1 }, text: 'Pick SQLite' },
  'needsYou.dismiss': { item: { kind: 'task', roomId: FUZZ_ROOM, number: 99 } },
  'needsYou.act': { item: { kind: 'alert', roomId: FUZZ_ROOM, number: 99 }, action: 'remind' },
  'delivery.receipts': { roomId: FUZZ_ROOM, numbers: [1, 2, 3] },
  'delivery.room': { roomId: FUZZ_ROOM },
  // A budget is fuzzed against a room that does not exist, so the world's reads stay allowed.
  'delivery.setRoomBudget': { roomId: 'no-such-room', dailyTokens: 5_000 },
  'memory.list': { roomId: FUZZ_ROOM },
  'memory.add': { roomId: FUZZ_ROOM, category: 'term', title: 'Word', body: 'Meaning' },
  'memory.edit': { roomId: FUZZ_ROOM, number: 1, body: 'Edited' },
  'memory.retire': { roomId: FUZZ_ROOM, number: 99 },
  'auth.startDeviceFlow': {},
  'setup.install': { tool: 'cursor' },
  'setup.uninstall': { tool: 'cursor' },
  'setup.snippet': { tool: 'codex' },
  'setup.firstPrompt': { roomId: FUZZ_ROOM },
  'settings.set': { theme: 'dark' },
  // Nothing listens on port 1: the add is refused at once (team_unreachable), nothing stored.
  'teams.add': { name: 'fuzz', url: 'postgres://postgres@127.0.0.1:1/fuzz' },
  'teams.test': { name: 'fuzz' },
  'teams.remove': { name: 'fuzz' },
  'teams.setPatterns': { name: 'fuzz', patterns: ['github.com/fuzz/*'] },
  'teams.setDefault': { place: 'local' },
  'app.openExternal': { url: 'https://github.com/letagents' },
  // Phone access needs the host's listener: here every call is refused as not available.
  'phone.certificate': { use: 'app' },
  'phone.revoke': { deviceId: 'no-such-phone' },
  'notifications.setTarget': { kind: 'none' },
  'notifications.setRoom': { roomId: FUZZ_ROOM, level: 'mentions' },
};

/** Runs before a method's cases: a fuzzed target must not make the test send reach the network. */
async function beforeMethod(method: string): Promise<void> {
  if (method === 'notifications.test') await dispatch('notifications.setTarget', { kind: 'none' });
}

/** The input's properties as JSON Schema, so the fuzz follows the contract as it grows. */
function inputProperties(method: (typeof METHOD_NAMES)[number]): Record<string, PropertySchema> {
  const schema = z.toJSONSchema(contract[method].input, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, PropertySchema> };
  return schema.properties ?? {};
}

beforeAll(async () => {
  world = await startFuzzWorld();
  const impl = createApiImplementation(world.app, {
    kind: 'browser',
    env: {},
    // The hosts' shells are never reached from a test: record instead of opening anything.
    openExternal: async (url) => (opened.push(url), true),
    openPath: async (path) => (opened.push(path), true),
  });
  dispatch = createDispatcher(impl, { onUnexpected: (method, error) => void unexpected.push(`${method}: ${String(error).slice(0, 300)}`) });
}, 60_000);

afterAll(async () => {
  await world?.close();
  await cleanupSpawned();
});

/** What is wrong with one call; empty when it is a result or a clear refusal that changed nothing. */
async function attempt(method: string, input: unknown, label: string): Promise<string[]> {
  return (await attemptWithResult(method, input, label)).problems;
}

async function attemptWithResult(method: string, input: unknown, label: string): Promise<{ problems: string[]; result?: ApiResult }> {
  const store = world.app.core.store;
  // A fuzzed rooms.archive may have archived the room; every case starts with it open.
  const archived = rawDbOf(store).prepare('SELECT archived_at FROM rooms WHERE room_id = ?').get(FUZZ_ROOM) as { archived_at: string | null } | undefined;
  if (archived?.archived_at) await dispatch('rooms.archive', { roomId: FUZZ_ROOM, archived: false });
  // A fuzzed settings.set may have shortened the delivery limit: the world's long one is put back,
  // or a later reply's "not picked up" item would land in the middle of another call.
  const { settings } = world.app.hub.delivery;
  if (settings.limits.unansweredAfterMs !== FUZZ_UNANSWERED_AFTER_SECONDS * 1000) await settings.update({ unansweredAfterSeconds: FUZZ_UNANSWERED_AFTER_SECONDS });
  await store.drain();
  const before = storeSnapshot(rawDbOf(store));
  let result: ApiResult;
  try {
    result = await dispatch(method, input === undefined ? undefined : JSON.parse(JSON.stringify(input)));
  } catch (error) {
    return { problems: [`${method} with ${label}: the dispatcher threw ${String(error).slice(0, 200)}`] };
  }
  await store.drain();
  if (result.ok) return { problems: [], result };
  counts.refused++;
  const where = `${method} with ${label}`;
  const problems: string[] = [];
  const { code, message } = result.error;
  if (code === 'internal' || !code || !message?.trim()) problems.push(`${where}: not a clear refusal: ${JSON.stringify(result.error).slice(0, 300)}`);
  if (/TypeError|ReferenceError|RangeError|SQLITE_|\n\s+at \S+ \(/.test(message)) problems.push(`${where}: leaks internals: ${message.slice(0, 300)}`);
  if (storeSnapshot(rawDbOf(store)) !== before) problems.push(`${where}: refused (${code}: ${message.slice(0, 100)}) but changed the store`);
  return { problems, result };
}

describe('every app API method under hostile input', () => {
  it('refuses each adversarial value in each field clearly, changing nothing', async () => {
    const problems: string[] = [];
    for (const method of METHOD_NAMES) {
      await beforeMethod(method);
      const base = BASELINE[method] ?? {};
      // The unchanged baseline must pass validation, or the variants would only test the schema.
      const first = await attemptWithResult(method, base, 'the baseline');
      problems.push(...first.problems);
      if (first.result && !first.result.ok && first.result.error.code === 'invalid_input') problems.push(`${method}: the baseline is invalid: ${first.result.error.message}`);
      const variants: Array<[string, unknown]> = [
        ['no input', undefined],
        ['a string instead of an object', 'rooms'],
        ['an array instead of an object', [base]],
        ['an unknown extra field', { ...base, forged: '<script>alert(1)</script>' }],
      ];
      for (const [field, schema] of Object.entries(inputProperties(method))) {
        for (const [name, value] of hostileValuesFor(schema)) variants.push([`${field} = ${name}`, { ...base, [field]: value }]);
      }
      for (const [label, input] of variants) {
        problems.push(...(await attempt(method, input, label)));
        counts.table++;
      }
    }
    // Method names that are not in the contract, including ones an object inherits.
    for (const name of ['__proto__', 'constructor', 'toString', 'rooms', 'rooms.list ', 'ROOMS.LIST', '']) {
      const result = await dispatch(name, {});
      if (result.ok || result.error.code !== 'unknown_method') problems.push(`method "${name}": ${JSON.stringify(result).slice(0, 200)}`);
      counts.table++;
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it('survives random input for every method (fast-check)', async () => {
    const problems: string[] = [];
    for (const [index, method] of METHOD_NAMES.entries()) {
      await beforeMethod(method);
      const properties = inputProperties(method);
      const inputArb = fc.record(Object.fromEntries(Object.entries(properties).map(([key, schema]) => [key, valueFor(schema)])), { requiredKeys: [] });
      const withBase = fc.tuple(fc.boolean(), inputArb).map(([useBase, random]) => (useBase ? { ...(BASELINE[method] ?? {}), ...random } : random));
      await fc.assert(
        fc.asyncProperty(withBase, async (input) => {
          const found = await attempt(method, input, JSON.stringify(input).slice(0, 200));
          counts.property++;
          problems.push(...found);
          return found.length === 0;
        }),
        { numRuns: RUNS_PER_METHOD, seed: SEED + index, endOnFailure: true },
      );
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it('leaves a consistent store, nothing unexpected in the log and no polluted prototype', () => {
    const db = rawDbOf(world.app.core.store);
    expect([...integrityProblems(db), ...consistencyProblems(db)]).toEqual([]);
    expect(unexpected).toEqual([]);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // Only https: links ever reach the host's shell.
    expect(opened.filter((url) => !url.startsWith('https:') && !url.startsWith('/'))).toEqual([]);
    console.info(
      `hostile API input: ${METHOD_NAMES.length} methods; ${counts.table} table cases (${HOSTILE_VALUES.length} adversarial values, by type, × every field) and ` +
        `${counts.property} fast-check cases; ${counts.refused} refusals, each clear and changing nothing (seed ${SEED})`,
    );
  });
});
