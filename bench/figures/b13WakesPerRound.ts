// B13: wakes per round. Five agents (real stdio helpers) loop on wait_for_messages while
// the fixed room script of bench/lib/wakeScript.ts runs; every result with messages is a
// wake. A wake is wanted when it delivers something the script says concerns that agent
// (a mention, its thread, its task, a person, a broadcast), else wasted. The app core runs
// in this process behind the real agent socket, so the person's steps go through the app
// API exactly as the UI sends them.
import { createApp, type App } from '../../src/main/app';
import { createApiImplementation, createDispatcher } from '../../src/main/api';
import { startGateway, type Gateway } from '../../src/main/gateway';
import { createMemorySecretStore } from '../../src/main/secrets/memorySecretStore';
import type { Json } from '../lib/agents';
import type { Figure } from '../lib/figure';
import { closeClient, connectHelper } from '../lib/processes';
import { sleep, summarize } from '../lib/stats';
import { runWakeScript, SCRIPT_AGENTS, type ScriptAgent, type ScriptRun } from '../lib/wakeScript';
import { workspace } from '../lib/workspace';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

const ROUNDS = 3;
/** Time for every woken waiter to take its result and park again before the next step. */
const SETTLE_MS = 150;

export interface WakeCount {
  wakes: number;
  wanted: number;
  wasted: number;
  /** Messages the script says concern the agent that never reached it. */
  missed: number;
}

/** Classifies every wake of every agent in one run of the script. */
export function countWakes(run: ScriptRun): Map<ScriptAgent, WakeCount> {
  const out = new Map<ScriptAgent, WakeCount>();
  for (const agent of SCRIPT_AGENTS) {
    const wantedIds = new Set(run.messages.filter((m) => m.expected.get(agent)?.activate).map((m) => m.id));
    const results = run.results.get(agent) ?? [];
    const wakes = results.filter((r) => r.delivered.length > 0);
    const wanted = wakes.filter((r) => r.delivered.some((d) => wantedIds.has(d.id))).length;
    const delivered = new Set(results.flatMap((r) => r.delivered.map((d) => d.id)));
    out.set(agent, { wakes: wakes.length, wanted, wasted: wakes.length - wanted, missed: [...wantedIds].filter((id) => !delivered.has(id)).length });
  }
  return out;
}

async function oneRound(round: number): Promise<{ counts: Map<ScriptAgent, WakeCount>; steps: number }> {
  const ws = workspace();
  const app: App = createApp({ dataDir: ws.dataDir, secrets: createMemorySecretStore(), home: ws.root });
  let gateway: Gateway | null = null;
  const clients: Client[] = [];
  try {
    gateway = await startGateway({ dataDir: ws.dataDir, handler: app.hub, http: false });
    const dispatch = createDispatcher(createApiImplementation(app));
    const run = await runWakeScript(
      {
        connect: async (name) => {
          const client = await connectHelper(ws.dataDir, ws.agentDir, `bench-${name}`);
          clients.push(client);
          return client;
        },
        person: async (method: string, input: Json) => {
          const result = await dispatch(method, input);
          if (!result.ok) throw new Error(`${method} failed: ${result.error.message}`);
          return result.value;
        },
        settle: () => sleep(SETTLE_MS),
      },
      `bench-wakes-${round}`,
    );
    return { counts: countWakes(run), steps: run.messages.length };
  } finally {
    await Promise.all(clients.map((c) => closeClient(c)));
    await gateway?.close();
    await app.close();
  }
}

export const b13: Figure = {
  id: 'B13',
  what: 'wakes per round: 5 agents looping on wait_for_messages through a fixed room script',
  target: '0 wasted wakes; every wanted wake delivered',
  async run() {
    const wasted: number[] = [];
    const wanted: number[] = [];
    let missed = 0;
    let last = new Map<ScriptAgent, WakeCount>();
    let steps = 0;
    for (let round = 0; round < ROUNDS; round++) {
      ({ counts: last, steps } = await oneRound(round));
      const counts = [...last.values()];
      wasted.push(counts.reduce((s, c) => s + c.wasted, 0));
      wanted.push(counts.reduce((s, c) => s + c.wanted, 0));
      missed += counts.reduce((s, c) => s + c.missed, 0);
    }
    const perAgent = [...last].map(([agent, c]) => `${agent} ${c.wakes} (${c.wanted} wanted, ${c.wasted} wasted${c.missed ? `, ${c.missed} missed` : ''})`);
    return {
      ours: { ...summarize(wasted), label: 'wasted wakes per round (all five agents)', unit: 'wakes' },
      floor: { ...summarize(wanted), label: 'wanted wakes per round', unit: 'wakes' },
      ratio: null,
      met: wasted.every((w) => w === 0) && missed === 0,
      notes: [
        `${ROUNDS} rounds of ${steps} steps; wakes per agent in the last round: ${perAgent.join('; ')}`,
        `wanted messages that never reached their agent, all rounds: ${missed}`,
      ],
    };
  },
};
