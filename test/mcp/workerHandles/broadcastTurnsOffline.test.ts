// Issue 34 item 2: the agent whose @all turn it is loses its connection (its helper process is
// killed) and does not come back. Once presence's reconnect grace is over it is offline, so away,
// and the next agent's waiting wait_for_messages gets the @all then, not at the turn's deadline:
// the turns here last the product's 90 s and the wait 50 s, so only the agent going offline can
// explain the @all arriving. Real MCP SDK clients over real helper processes; runs in this
// computer's rooms and in team rooms.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TURN_WAIT_MS } from '../../../src/main/domain/activation/broadcastTurns';
import { personIn, startInProcessApp, type InProcessApp } from './apps';
import { call, pause, register, type Reply } from './tools';
import { RECONNECT_GRACE_MS } from '../../../src/main/mcp/bindings';
import type { HelperClient } from '../../support';

/** The next agent's wait: shorter than one turn, so a deadline never ends it with the @all. */
const WAIT_MS = 50_000; // under the MCP SDK's 60 s request timeout
/** The grace (10 s) and a moment: well inside the wait, with room for a busy machine. */
const COMES_WITHIN_MS = RECONNECT_GRACE_MS + 20_000;

let inproc: InProcessApp;
let person: (method: string, input: Record<string, unknown>) => Promise<Reply>;

beforeAll(async () => {
  inproc = await startInProcessApp();
  person = personIn(inproc.app);
}, 60_000);

afterAll(() => inproc?.close());

interface Agent { name: string; client: HelperClient; workerId: string; cursor: string }

describe('an @all turn whose agent went offline (its helper killed)', () => {
  it('moves on when presence counts it offline after the grace, long before the turn would end', async () => {
    expect(WAIT_MS).toBeLessThan(TURN_WAIT_MS);
    const agents = new Map<string, Agent>();
    let roomId = '';
    for (const name of ['Cedar', 'Birch', 'Aspen']) {
      const client = await inproc.connect();
      roomId = await inproc.room(client, 'in-turn-offline');
      const reg = await register(client, { room_id: roomId, registration_key: `in-turn-offline-${name}-key-4f7a9c2e81d6`, display_name: name });
      agents.set(name, { name, client, workerId: reg.worker_id, cursor: '' });
    }
    const waitOf = async (a: Agent, timeout: number): Promise<Reply> => {
      const r = await call(a.client, 'wait_for_messages', { worker_id: a.workerId, ...(a.cursor ? { after_message_id: a.cursor } : {}), timeout });
      expect(r.isError, JSON.stringify(r)).toBeUndefined();
      a.cursor = r.last_observed_message_id;
      return r;
    };
    for (const a of agents.values()) await waitOf(a, 1_000);

    const sent = await person('messages.send', { roomId, text: '@all who knows why the nightly build is red?' });
    const turns = async () => (await person('delivery.receipts', { roomId, numbers: [sent.number] })).receipts[0].turns;
    const [first, second] = (await turns()).order.map((t: Reply) => agents.get(t.name)!);
    const secondWait = waitOf(second, WAIT_MS);
    expect((await waitOf(first, 20_000)).messages.map((m: Reply) => m.id)).toEqual([sent.id]);

    // The first agent's helper dies mid-turn and nothing reconnects it.
    process.kill(first.client.helperPid!, 'SIGKILL');
    // A wait's last look when it ends also finds the first agent away: the @all must come well before that.
    const got = await Promise.race([secondWait, pause(COMES_WITHIN_MS).then(() => null)]);
    expect(got?.messages.map((m: Reply) => m.id), 'the @all before the wait ran out').toEqual([sent.id]);
    expect((await turns()).order.map((t: Reply) => t.state)).toEqual(['away', 'turn', 'waiting']);
  }, 120_000);
});
