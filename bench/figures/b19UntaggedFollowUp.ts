// B19 (issue 34): agents woken per untagged person follow-up in a room of six. Six agents (real
// stdio helpers) wait on wait_for_messages; the person mentions one of them, it answers, and the
// person follows up five times naming nobody ("and the tests?"), the agent answering each. After
// each follow-up every agent waits from its cursor: those whose wait returns the follow-up were
// woken by it. Before issue 34 a person's message woke every agent (6).
import { createApp, type App } from '../../src/main/app';
import { createApiImplementation, createDispatcher } from '../../src/main/api';
import { startGateway, type Gateway } from '../../src/main/gateway';
import { createMemorySecretStore } from '../../src/main/secrets/memorySecretStore';
import { agentName, callTool, joinAsWorker, type Json, type Worker } from '../lib/agents';
import type { Figure } from '../lib/figure';
import { closeClient, connectHelper } from '../lib/processes';
import { summarize } from '../lib/stats';
import { workspace } from '../lib/workspace';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

const AGENTS = 6;
const FOLLOW_UPS = ['and the tests?', 'what about the flaky one?', 'and the docs?', 'how long will it take?', 'anything blocking you?'];
/** A silent message never returns a wait: this bounds how long an agent that was not woken waits. */
const QUIET_WAIT_MS = 1_500;

export const b19: Figure = {
  id: 'B19',
  what: 'agents woken per untagged person follow-up in a room of 6 agents (wait_for_messages)',
  target: '1 agent per follow-up (every agent before issue 34: 6)',
  async run() {
    const ws = workspace();
    const app: App = createApp({ dataDir: ws.dataDir, secrets: createMemorySecretStore(), home: ws.root });
    let gateway: Gateway | null = null;
    const clients: Client[] = [];
    try {
      gateway = await startGateway({ dataDir: ws.dataDir, handler: app.hub, http: false });
      const dispatch = createDispatcher(createApiImplementation(app));
      const person = async (method: string, input: Json) => {
        const result = await dispatch(method, input);
        if (!result.ok) throw new Error(`${method} failed: ${result.error.message}`);
        return result.value as Json;
      };
      const room = 'bench-follow-ups';
      const workers: Worker[] = [];
      for (let i = 0; i < AGENTS; i++) {
        const client = await connectHelper(ws.dataDir, ws.agentDir, `bench-b19-${i}`);
        clients.push(client);
        workers.push(await joinAsWorker(client, room, agentName(i)));
      }
      const roomId = workers[0].roomId;
      const cursors = await Promise.all(workers.map(async (w) => String((await callTool(w.client, 'wait_for_messages', { worker_id: w.workerId, timeout: 1_000 })).last_observed_message_id)));
      /** Every agent waits from its cursor; returns how many got message `id`. */
      const woken = async (id: string) => {
        const got = await Promise.all(workers.map(async (w, i) => {
          const r = await callTool(w.client, 'wait_for_messages', { worker_id: w.workerId, after_message_id: cursors[i], timeout: QUIET_WAIT_MS });
          cursors[i] = String(r.last_observed_message_id);
          return (r.messages as Json[]).some((m) => m.id === id);
        }));
        return got.filter(Boolean).length;
      };
      const answer = async () => {
        await callTool(workers[0].client, 'send_message', { worker_id: workers[0].workerId, text: 'Looking at it now.' });
        await woken(''); // every cursor past the answer
      };

      await woken(String((await person('messages.send', { roomId, text: `@${agentName(0)} please fix the login test` })).id));
      await answer();
      const counts: number[] = [];
      for (const text of FOLLOW_UPS) {
        counts.push(await woken(String((await person('messages.send', { roomId, text })).id)));
        await answer();
      }
      return {
        ours: { ...summarize(counts), label: 'agents woken per untagged follow-up', unit: 'agents' },
        floor: null,
        ratio: null,
        met: counts.every((c) => c === 1),
        notes: [`${FOLLOW_UPS.length} follow-ups in a room of ${AGENTS}: ${counts.join(', ')} agents woken`],
      };
    } finally {
      await Promise.all(clients.map((c) => closeClient(c)));
      await gateway?.close();
      await app.close();
    }
  },
};
