// B18 (issue 25): turns started per 100 unaddressed agent messages in a room of five agents,
// two of them managed (real Claude Code CLI, fake model answering at once): Ash and Birch
// chat through real helpers; Elm, the fifth, registered in an earlier run of the app and is
// offline now (a member, as managed agents are between turns). Target 0: chatter not
// addressed to a managed agent costs it no turn. The loop guard is set out of the way, so
// the figure counts routing alone. The reference: a mention of one managed agent, which must
// give it exactly one turn (the setup can start turns at all).
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ensureRoom } from '../../src/main/domain/rooms/rooms';
import { startAppHost, type AppHost } from '../../src/main/host';
import { createMemorySecretStore } from '../../src/main/secrets/memorySecretStore';
import { say, startFakeModel } from '../../test/support/fakeModels';
import { callTool, joinAsWorker } from '../lib/agents';
import { personApi } from '../lib/personApi';
import type { Figure } from '../lib/figure';
import { closeClient, connectHelper, tempDir } from '../lib/processes';
import { sleep, summarize } from '../lib/stats';
import { pinnedCliBin } from '../../test/support/pinnedClis';

const ROOM = 'bench-chatter';
const MESSAGES = 100;
/** After the chatter, time for any turn it asked for to start (turns start within milliseconds). */
const SETTLE_MS = 3_000;

export const b18: Figure = {
  id: 'B18',
  what: 'turns started per 100 unaddressed agent messages (5-agent room, 2 managed)',
  target: '0',
  async run(ctx) {
    const root = tempDir();
    const home = join(root, 'home');
    const dataDir = join(root, 'data');
    const folder = join(root, 'work');
    mkdirSync(folder, { recursive: true });
    const model = await startFakeModel('claude_code', home);
    const env = { ...process.env, ...model.env, PATH: `${pinnedCliBin()}:${process.env.PATH ?? ''}` };
    const start = () => startAppHost({ dataDir, env, home, secrets: createMemorySecretStore() });
    let host: AppHost | null = null;
    const clients = [];
    try {
      // An earlier run: Elm joined, then its chat closed.
      host = await start();
      await host.app.core.store.write((tx) => ensureRoom(tx, { roomId: ROOM, kind: 'named' }));
      const elm = await connectHelper(dataDir, folder, 'elm');
      await joinAsWorker(elm, ROOM, 'Elm');
      await closeClient(elm);
      await host.close();

      host = await start();
      const app = host.app;
      const call = personApi(app, env);
      await call('settings.set', { delivery: { loopGuardMessages: 1_000 } });
      const managed = [];
      for (const name of ['Juniper', 'Cedar']) {
        managed.push(String((await call('agents.add', { provider: 'claude_code', folder, roomId: ROOM, name, permissions: 'read_only', turnsPerHour: null })).agentId));
      }
      const ash = await joinAsWorker(await connectHelper(dataDir, folder, 'ash'), ROOM, 'Ash');
      const birch = await joinAsWorker(await connectHelper(dataDir, folder, 'birch'), ROOM, 'Birch');
      clients.push(ash.client, birch.client);
      const turnsOf = async (agentId: string) => app.agents.get(agentId).then((r) => r.lastTurn?.number ?? 0);
      for (let i = 0; i < MESSAGES; i++) {
        const from = i % 2 === 0 ? ash : birch;
        await callTool(from.client, 'send_message', { worker_id: from.workerId, text: `Build ${i} passed on my side; moving on.` });
      }
      await sleep(SETTLE_MS);
      const turns = (await Promise.all(managed.map(turnsOf))).reduce((a, b) => a + b, 0);
      ctx.log(`B18: ${turns} turns started for ${MESSAGES} unaddressed agent messages`);
      // Reference: a mention does start a turn.
      model.script.push('Juniper', say('Noted.'));
      await callTool(ash.client, 'send_message', { worker_id: ash.workerId, text: '@Juniper please check the release notes.' });
      for (let i = 0; i < 3_000 && (await turnsOf(managed[0])) === turns; i++) await sleep(10);
      const mentionTurns = (await turnsOf(managed[0])) - turns;
      return {
        ours: { ...summarize([turns]), label: `managed turns started per ${MESSAGES} unaddressed agent messages`, unit: 'turns' },
        floor: { ...summarize([mentionTurns]), label: 'turns started by one mention (reference: must be 1)', unit: 'turns' },
        ratio: null,
        met: turns === 0 && mentionTurns === 1,
        notes: [`room members: Juniper, Cedar (managed), Ash, Birch (chatting, online), Elm (offline since an earlier run); loop guard at 1,000 messages`],
      };
    } finally {
      for (const client of clients) await closeClient(client);
      await host?.close();
      await model.close();
    }
  },
};
