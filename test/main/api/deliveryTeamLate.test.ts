// Delivery in a team room whose database is down when the app starts (issue 14, team rooms of
// issue 12), through the app API with agents as real MCP clients, against a real PostgreSQL
// cluster (throwaway): once the database comes up, the loop pause and the pending mention
// kept in it are in force on this app without a restart.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPostgresSuites, startPostgres, type PgCluster } from '../../support/postgres';
import { waitUntil } from '../../support/waitUntil';
import { setUpApi, type ApiHarness } from './harness';

const ROOM = 'lab';
const TEAM = 'acme';
const msgNumber = (id: unknown) => Number(String(id).slice('msg_'.length));

let cluster: PgCluster;

/** The team's open "Needs you" items of `reason`, by who they are about. */
async function itemsFrom(h: ApiHarness, reason: string): Promise<string[]> {
  return (await h.call('needsYou.list', {})).items.filter((i) => i.reason === reason && i.ref.place === TEAM).map((i) => String(i.from));
}

describe.skipIf(!runPostgresSuites)('delivery in a team room whose database comes up after the start', () => {
  beforeAll(async () => {
    cluster = await startPostgres();
  });
  afterAll(() => cluster?.stop());

  it('keeps the loop paused and raises the pending mention once the database is up, without a restart', async () => {
    const env = { LETAGENTS_TEAM_URL_ACME: await cluster.createDatabase() };
    const first = await setUpApi({ env });
    await first.call('teams.setDefault', { place: TEAM });
    await first.call('settings.set', { delivery: { unansweredAfterSeconds: 6, loopGuardMessages: 3 } });
    const atlas = await first.agent(ROOM, 'Atlas');
    const birch = await first.agent(ROOM, 'Birch');
    await first.agent(ROOM, 'Cedar');
    const numbers: number[] = [];
    for (let i = 0; i < 4; i++) numbers.push(msgNumber((await (i % 2 ? birch : atlas).tool('send_message', { text: `${i % 2 ? '@Atlas' : '@Birch'} round ${i}` })).id));
    await first.call('messages.send', { roomId: ROOM, place: TEAM, text: '@Cedar can you rotate the keys?' });
    await expect.poll(() => itemsFrom(first, 'loop')).toHaveLength(1);
    // The mention's timer is still pending when this app stops.
    expect(await itemsFrom(first, 'unanswered')).toEqual([]);
    await first.app.close();

    cluster.kill();
    let second: ApiHarness;
    try {
      second = await setUpApi({ dataDir: first.dataDir, env });
      await Promise.all([second.app.hub.delivery.loopGuard.ready, second.app.deliveryAlerts.ready]);
      expect(second.app.teams.connections.state(TEAM).status).toBe('offline');
    } finally {
      cluster.start();
    }
    await waitUntil(() => second.app.teams.connections.state(TEAM).status === 'online', 15_000, 'the team online');

    // The room reports the pause kept in the team's database...
    await expect.poll(async () => (await second.call('delivery.room', { roomId: ROOM, place: TEAM })).loop, { timeout: 5_000 }).toMatchObject({
      agents: ['Atlas', 'Birch'],
      fromNumber: numbers[3],
    });
    // ...and the agents' mentions of one another wake neither of them.
    const atlasAgain = await second.agent(ROOM, 'Atlas');
    const birchAgain = await second.agent(ROOM, 'Birch');
    expect([atlasAgain.agentKey, birchAgain.agentKey]).toEqual([atlas.agentKey, birch.agentKey]);
    const cursor = (await birchAgain.tool<{ last_observed_message_id: string }>('wait_for_messages', { timeout: 1000 })).last_observed_message_id;
    const waiting = birchAgain.tool<{ messages: unknown[] }>('wait_for_messages', { after_message_id: cursor, timeout: 1500 });
    expect(await atlasAgain.tool('send_message', { text: '@Birch round 4' })).toMatchObject({ loop_paused: true });
    expect((await waiting).messages).toEqual([]);

    // The mention's timer, re-derived from the team's messages, raises its item.
    await expect.poll(() => itemsFrom(second, 'unanswered'), { timeout: 12_000, interval: 200 }).toContain('Cedar');
  });
});
