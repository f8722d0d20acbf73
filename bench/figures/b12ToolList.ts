// B12: what the agent carries and receives. The tools/list result in characters (and
// estimated tokens, characters ÷ 3.6) for the full surface and the `--tools core` profile,
// and the bytes an agent receives over stdio in one coordination round: join_room,
// register_agent_session, read_messages, send_message, and a wait_for_messages woken by
// one message. Sizes do not vary with machine load; the round is repeated for a median.
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { TOOL_LIST_BUDGETS } from '../../src/main/mcp/tools';
import { callTool, joinAsWorker } from '../lib/agents';
import type { Figure, FigureOutcome } from '../lib/figure';
import { closeClient, connectHelper, startServe } from '../lib/processes';
import { sleep, summarize } from '../lib/stats';
import { workspace } from '../lib/workspace';

const ROUNDS = 5;
/** A common estimate for English text and JSON with typical tokenizers. */
const CHARS_PER_TOKEN = 3.6;
const STEPS = ['join_room', 'register_agent_session', 'read_messages', 'send_message', 'wait_for_messages'] as const;

/**
 * Counts the bytes of every JSON-RPC line the client receives from now on, and how many of
 * them are structuredContent (the result document again, beside its text for older clients).
 */
function countReceived(client: Client): { bytes: () => number; structured: () => number; reset: () => void } {
  const transport = client.transport!;
  const deliver = transport.onmessage!;
  let bytes = 0;
  let structured = 0;
  transport.onmessage = (message, extra) => {
    bytes += Buffer.byteLength(JSON.stringify(message)) + 1;
    const content = (message as { result?: { structuredContent?: unknown } }).result?.structuredContent;
    if (content !== undefined) structured += Buffer.byteLength(JSON.stringify(content));
    deliver(message, extra);
  };
  return { bytes: () => bytes, structured: () => structured, reset: () => ((bytes = 0), (structured = 0)) };
}

export const b12: Figure = {
  id: 'B12',
  what: 'context an agent carries (tools/list) and bytes it receives in one coordination round',
  target: `full ≤ ${TOOL_LIST_BUDGETS.full.toLocaleString('en')} chars; core ≤ ${TOOL_LIST_BUDGETS.core.toLocaleString('en')} chars`,
  async run() {
    const ws = workspace();
    const serve = await startServe(ws.dataDir);
    try {
      const rows: FigureOutcome[] = [];
      for (const profile of ['full', 'core'] as const) {
        const client = await connectHelper(ws.dataDir, ws.agentDir, `bench-b12-${profile}`, { tools: profile === 'core' ? 'core' : undefined });
        const { tools } = await client.listTools();
        await closeClient(client);
        const chars = JSON.stringify({ tools }).length;
        rows.push({
          id: `B12 ${profile}`,
          target: `tools/list ≤ ${TOOL_LIST_BUDGETS[profile].toLocaleString('en')} chars`,
          ours: { ...summarize([chars]), label: `tools/list, ${profile} profile (${tools.length} tools)`, unit: 'chars' },
          floor: { ...summarize([Math.round(chars / CHARS_PER_TOKEN)]), label: `est. tokens, chars ÷ ${CHARS_PER_TOKEN}`, unit: 'tokens' },
          ratio: null,
          met: chars <= TOOL_LIST_BUDGETS[profile],
          notes: [`${tools.length} tools; ≈ ${Math.round(chars / CHARS_PER_TOKEN).toLocaleString('en')} tokens (characters ÷ ${CHARS_PER_TOKEN})`],
        });
      }
      rows.push(await coordinationRound(ws));
      return rows;
    } finally {
      await serve.stop();
    }
  },
};

/** One agent's round in a fresh room each time, woken by a second agent's message. */
async function coordinationRound(ws: { dataDir: string; agentDir: string }): Promise<FigureOutcome> {
  const totals: number[] = [];
  const structuredTotals: number[] = [];
  const perStep = new Map<string, number[]>(STEPS.map((s) => [s, []]));
  const peer = await connectHelper(ws.dataDir, ws.agentDir, 'bench-b12-peer');
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const room = `bench-b12 round ${round}`;
      const other = await joinAsWorker(peer, room, `Peer${round}`);
      const agent = await connectHelper(ws.dataDir, ws.agentDir, 'bench-b12-agent');
      try {
        const received = countReceived(agent);
        let structured = 0;
        const step = async (name: (typeof STEPS)[number], run: () => Promise<Record<string, unknown>>) => {
          received.reset();
          const result = await run();
          perStep.get(name)!.push(received.bytes());
          structured += received.structured();
          return result;
        };
        await step('join_room', () => callTool(agent, 'join_room', { name: room }));
        const name = `Agent${round}`;
        const registered = await step('register_agent_session', () =>
          callTool(agent, 'register_agent_session', { room_id: room, registration_key: `bench-b12-${round}-${process.pid}-4f7a9c2e81d6b035`, display_name: name }),
        );
        const workerId = String(registered.worker_id);
        await step('read_messages', () => callTool(agent, 'read_messages', { worker_id: workerId }));
        const sent = await step('send_message', () => callTool(agent, 'send_message', { worker_id: workerId, text: `@Peer${round} ready when you are` }));
        await step('wait_for_messages', async () => {
          const waiting = callTool(agent, 'wait_for_messages', { worker_id: workerId, after_message_id: String(sent.id) });
          await sleep(50);
          await callTool(peer, 'send_message', { worker_id: other.workerId, text: `@${name} here is your task` });
          return waiting;
        });
        totals.push(STEPS.reduce((sum, s) => sum + perStep.get(s)!.at(-1)!, 0));
        structuredTotals.push(structured);
      } finally {
        await closeClient(agent);
      }
    }
  } finally {
    await closeClient(peer);
  }
  const median = (values: number[]) => summarize(values).median;
  return {
    id: 'B12 round',
    target: 'reported',
    ours: { ...summarize(totals), label: 'bytes received: join, register, read, send, wait woken by one message', unit: 'bytes' },
    floor: null,
    ratio: null,
    met: null,
    notes: [
      `median bytes per step: ${STEPS.map((s) => `${s} ${median(perStep.get(s)!)}`).join(', ')}; ${ROUNDS} rounds, each in a fresh room`,
      `of which structuredContent (each result's JSON again, unindented, beside its pretty-printed text): median ${median(structuredTotals)} bytes`,
    ],
  };
}
