// Quiet wakes (issue 18; mcp-tools.md §5.3 rows 4 and 4b) on the B13 room script: five
// agents, each a real `letagents-desktop mcp` helper looping on wait_for_messages, while
// the script joins, posts statuses, runs three tasks from proposal to done, mentions,
// threads and has the person speak. For every message × agent the routing reason is the
// one the script names: delivered with it when it activates, listed as skipped when silent.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiImplementation, createDispatcher } from '../../src/main/api';
import { getMessageRow } from '../../src/main/domain/messages/read';
import { listRoomSessions } from '../../src/main/domain/sessions/sessions';
import { parseNumberedId } from '../../src/main/domain/ids';
import { routeMessage } from '../../src/main/domain/activation/routing';
import { routableMessage, routingContextFor } from '../../src/main/domain/activation/routingContext';
import type { ToolEnv } from '../../src/main/mcp/services';
import { runWakeScript, SCRIPT_AGENTS, type ScriptRun } from '../../bench/lib/wakeScript';
import { startInProcessApp, type InProcessApp } from './workerHandles/apps';
import { mapInOrder } from '../../src/main/domain/inOrder';

const ROOM = 'quiet-wakes';
let inproc: InProcessApp;
let run: ScriptRun;

beforeAll(async () => {
  inproc = await startInProcessApp();
  const dispatch = createDispatcher(createApiImplementation(inproc.app));
  run = await runWakeScript(
    {
      connect: (name) => inproc.connect({ clientName: `script-${name}` }),
      person: async (method, input) => {
        const result = await dispatch(method, input);
        if (!result.ok) throw new Error(`${method}: ${result.error.message}`);
        return result.value;
      },
      settle: async () => undefined,
    },
    ROOM,
  );
}, 120_000);

afterAll(() => inproc?.close());

describe('the B13 room script', () => {
  it('delivers each message to exactly the agents it concerns, with the reason the script names', () => {
    for (const agent of SCRIPT_AGENTS) {
      const results = run.results.get(agent)!;
      const delivered = new Map(results.flatMap((r) => r.delivered.map((d) => [d.id, d.reason] as const)));
      const skipped = new Set(results.flatMap((r) => r.skipped));
      const expectedDelivered = new Map(
        run.messages.filter((m) => m.expected.get(agent)?.activate).map((m) => [m.id, m.expected.get(agent)!.reason] as const),
      );
      expect(Object.fromEntries(delivered), `delivered to ${agent}`).toEqual(Object.fromEntries(expectedDelivered));
      const silent = run.messages.filter((m) => m.expected.has(agent) && !m.expected.get(agent)!.activate).map((m) => m.id);
      expect(silent.filter((id) => !skipped.has(id)), `silent for ${agent} but not listed as skipped`).toEqual([]);
    }
  });

  it('names the routing reason of every message for every agent looping when it was posted', async () => {
    const services = inproc.app.hub.services;
    const env = { services } as ToolEnv;
    const table = await services.store.read(async (q) => {
      const sessions = await listRoomSessions(q, ROOM);
      return mapInOrder(run.messages, async (m) => {
        const row = (await getMessageRow(q, ROOM, parseNumberedId('msg', m.id)!))!;
        const routed = await mapInOrder([...m.expected.keys()], async (agent) => {
          const session = sessions.find((s) => s.display_name === agent)!;
          const decision = await routeMessage(
            routableMessage(row),
            await routingContextFor(env.services, q, { place: 'local', roomId: ROOM }, session),
          );
          return [agent, decision.reason] as const;
        });
        return [m.step, Object.fromEntries(routed)];
      });
    });
    const expected = run.messages.map((m) => [m.step, Object.fromEntries([...m.expected].map(([agent, e]) => [agent, e.reason]))]);
    expect(table).toEqual(expected);
  });

  it('wakes an agent only for what concerns it: no join, status post, proposal or review claim wakes anyone', () => {
    const quietSteps = run.messages.filter((m) => /joins|posts a status|proposes|reviews task/.test(m.step));
    expect(quietSteps).toHaveLength(2 + 5 + 3 + 3);
    for (const m of quietSteps) expect([...m.expected.values()].every((e) => !e.activate), m.step).toBe(true);
    const woken = new Set(SCRIPT_AGENTS.flatMap((a) => run.results.get(a)!.flatMap((r) => r.delivered.map((d) => d.id))));
    expect(quietSteps.filter((m) => woken.has(m.id)).map((m) => m.step)).toEqual([]);
  });
});
