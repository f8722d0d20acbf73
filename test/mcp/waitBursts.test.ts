// A wait woken by a burst (issues 18 and 38), through real helpers in a room of this computer:
// messages an agent sends together (a client's parallel tool calls) come in one result, and a
// lone message is a wake of its own. In a team room the same holds when the database commits
// the burst within the burst's 50 ms (on a loaded machine it may not, so it is tested here on
// SQLite; test/main/mcp/wakeGathering.test.ts covers the team's "more is coming" hints).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupSpawned, type ServeHandle } from '../support';
import { callsTogether, connectAgent, ids, registerWorker, startApp, type Agent } from './tools/harness';

const ROOM = 'burst-room';

let serve: ServeHandle;
let ada: Agent;
let bob: Agent;
let adaWorker: string;
let bobWorker: string;

beforeAll(async () => {
  serve = await startApp();
  ada = await connectAgent(serve, { clientName: 'claude-code' });
  bob = await connectAgent(serve, { clientName: 'codex' });
  adaWorker = (await registerWorker(ada, ROOM, 'Juniper')).workerId;
  bobWorker = (await registerWorker(bob, ROOM, 'Cedar')).workerId;
});

afterAll(async () => {
  await ada?.client.close();
  await bob?.client.close();
  await serve?.stop();
  await cleanupSpawned();
});

const adaSays = async (text: string) => (await ada.call('send_message', { worker_id: adaWorker, text })).id as string;
const bobWaits = (after: string) => bob.call('wait_for_messages', { worker_id: bobWorker, after_message_id: after, timeout: 20_000 });

describe('a wait woken by a burst', () => {
  it('gets messages sent together in one result, and the next lone message in a result of its own', async () => {
    let cursor = (await bob.call('read_messages', { room_id: ROOM, limit: 1 })).messages[0].id as string;
    for (let round = 1; round <= 3; round++) {
      const waiting = bobWaits(cursor);
      // Three calls at once from one agent, reaching the app together as a client's parallel tool calls: one burst.
      const sent = await callsTogether(ada, () => [1, 2, 3].map((n) => adaSays(`@Cedar round ${round}, step ${n} of the rollout`)));
      const woke = await waiting;
      expect(ids(woke).sort()).toEqual([...sent].sort());
      const lone = bobWaits(woke.last_observed_message_id);
      const after = await adaSays(`@Cedar round ${round}: and one more`);
      const next = await lone;
      expect(ids(next)).toEqual([after]);
      cursor = next.last_observed_message_id;
    }
  });
});
