// A managed agent in a team room (issue 35 item 1), across two machines on one PostgreSQL
// database, with the REAL Claude Code CLI against a fake model server (the model is the only
// fake): machine A ("ada-laptop") runs the agent; a person on machine B ("bo-desktop")
// mentions it, A gives it a turn, and its reply and receipts show on B; B's roster shows it a
// member run by A, and B's routing counts it as one between turns; once A's app stops, B shows it offline. A person's
// @all on B is answered in turn across the machines (issue 34): the second agent of the round,
// managed on A or connected on B, gets it only after the first answered. In the "team rooms via
// PgBouncer" project the apps' queries go through a transaction-mode PgBouncer.
import { describe, expect, it } from 'vitest';
import { answerUnlessAnswered, replyInRoom } from '../../support/fakeModels';
import { runPostgresSuites } from '../../support/postgres';
import { TEAM, type InProcessMachine } from '../../support/teamMachines';
import { waitUntil } from '../../support/waitUntil';
import { call, send } from '../../mcp/workerHandles/tools';
import { managedMachinesPerTest } from './managedMachines';
import { machineApi as api, teamWorker as worker } from './twoMachinesSetup';

const ROOM = 'design-review';
/** A real CLI's turn, or an app's silence of 30 s, takes longer than the default test time. */
const TURN_TEST_MS = 120_000;

interface Member { name: string; machine: string | null; reachability: string; ended: boolean }
const rosterOf = (machine: InProcessMachine) => api<Member[]>(machine, 'workers.list', { roomId: ROOM, place: TEAM });

/** Waits until `find` gives a value, and returns it. */
async function eventually<T>(find: () => Promise<T | undefined>, timeoutMs: number, what: string): Promise<T> {
  let found: T | undefined;
  await waitUntil(async () => (found = await find()) !== undefined, timeoutMs, what);
  return found!;
}

describe.skipIf(!runPostgresSuites)('a managed agent in a team room, run by machine A (real Claude Code, fake model)', () => {
  const managed = managedMachinesPerTest();
  const { machines } = managed;

  /** A adds Juniper to the team's room (created by an agent on B), by the room's id alone. */
  async function juniperOnA() {
    const { a, b } = machines;
    const onB = await b.connect();
    const birch = await worker(onB, ROOM, 'Birch');
    const juniper = await api<{ agentId: string; place: string; roomName: string }>(a, 'agents.add', {
      provider: 'claude_code', folder: managed.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only',
    });
    expect(juniper.place).toBe(TEAM);
    return { onB, birch, juniper };
  }

  it('a mention on B gives it a turn on A; its reply and "Seen by" show on B; B lists it as a member managed on A', async () => {
    const { a, b } = machines;
    const { juniper } = await juniperOnA();
    // B's roster: a member between turns, run by A (its machine's name), not a ghost.
    await waitUntil(async () => (await rosterOf(b)).some((m) => m.name === 'Juniper'), 10_000, 'Juniper on B\'s roster');
    expect((await rosterOf(b)).find((m) => m.name === 'Juniper')).toMatchObject({ machine: 'ada-laptop', reachability: 'managed', ended: false });

    managed.model.script.push('Juniper', ...replyInRoom('The schema looks fine to me.'));
    const mention = await api<{ number: number }>(b, 'messages.send', { roomId: ROOM, place: TEAM, text: '@Juniper can you review the schema?' });
    const turn = await eventually(async () => {
      const { turns } = await api<{ turns: Array<{ number: number; status: string }> }>(a, 'agents.activity', { agentId: juniper.agentId });
      return turns.find((t) => t.number === 1 && t.status !== 'running');
    }, 60_000, 'Juniper\'s first turn on A');
    expect(turn.status, JSON.stringify(turn)).toBe('done');
    expect(managed.model.script.requestsFor('Juniper')[0].prompts.join('\n')).toContain('@Juniper can you review the schema?');

    // On B: the reply in the room, and the mention seen by Juniper.
    const reply = await eventually(async () => {
      const page = await api<{ messages: Array<{ source: string; text: string; sender: { name: string } }> }>(b, 'messages.timeline', { roomId: ROOM, place: TEAM });
      return page.messages.find((m) => m.source === 'agent' && m.sender.name === 'Juniper');
    }, 15_000, 'Juniper\'s reply on B');
    expect(reply.text).toBe('The schema looks fine to me.');
    const { receipts } = await api<{ receipts: Array<{ seen: Array<{ name: string }> }> }>(b, 'delivery.receipts', { roomId: ROOM, place: TEAM, numbers: [mention.number] });
    expect(receipts[0].seen.map((s) => s.name)).toContain('Juniper');
  }, TURN_TEST_MS);

  it('B\'s routing counts it as a member between turns: chatter between agents on B wakes neither it nor them', async () => {
    const { a, b } = machines;
    const { onB, birch, juniper } = await juniperOnA();
    const onB2 = await b.connect();
    const alder = await worker(onB2, ROOM, 'Alder');
    await worker(await b.connect(), ROOM, 'Cedar');
    // Four members (Alder, Birch, Cedar, and Juniper between its turns): an unaddressed message
    // between agents wakes no one. Without Juniper counted, three would: Birch would get it.
    const cursor = (await call(onB, 'wait_for_messages', { worker_id: birch.worker_id, timeout: 1_000 })).last_observed_message_id;
    const chatter = await send(onB2, { worker_id: alder.worker_id, text: 'Build 12 is green on my side.' });
    // Bounded: proving that nothing comes needs a wait; 3 s is several wake paths' worth.
    const waited = await call(onB, 'wait_for_messages', { worker_id: birch.worker_id, after_message_id: cursor, timeout: 3_000 });
    expect(waited.messages.map((m: { id: string }) => m.id)).not.toContain(chatter);
    const { turns } = await api<{ turns: unknown[] }>(a, 'agents.activity', { agentId: juniper.agentId });
    expect(turns).toEqual([]);
    expect(managed.model.script.requestsFor('Juniper')).toEqual([]);
  }, TURN_TEST_MS);

  it('a second machine cannot add an agent of the same name to the room; removing it on A leaves no ghost on B', async () => {
    const { a, b } = machines;
    const { juniper } = await juniperOnA();
    const refused = await b.api('agents.add', { provider: 'claude_code', folder: managed.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.error.message).toBe('Juniper is already in this room, a managed agent on ada-laptop: choose another name.');

    await api(a, 'agents.remove', { agentId: juniper.agentId });
    await waitUntil(async () => (await rosterOf(b)).find((m) => m.name === 'Juniper')?.ended === true, 10_000, 'Juniper removed on B\'s roster');
    expect((await rosterOf(b)).find((m) => m.name === 'Juniper')?.reachability).toBe('offline');
  }, TURN_TEST_MS);

  it('when A\'s app stops, B shows it offline once A has been silent (30 s), not as a member a mention would reach', async () => {
    const { a, b } = machines;
    await juniperOnA();
    await waitUntil(async () => (await rosterOf(b)).find((m) => m.name === 'Juniper')?.reachability === 'managed', 10_000, 'Juniper managed on B\'s roster');
    await a.close();
    await waitUntil(async () => (await rosterOf(b)).find((m) => m.name === 'Juniper')?.reachability === 'offline', 60_000, 'Juniper offline on B once A is silent');
    expect((await rosterOf(b)).find((m) => m.name === 'Juniper')).toMatchObject({ machine: 'ada-laptop', ended: false });
  }, TURN_TEST_MS);

  it('a person\'s @all on B is answered in turn across machines: the second agent gets it only after the first answered', async () => {
    const { a, b } = machines;
    const { onB, birch, juniper } = await juniperOnA();
    await waitUntil(async () => (await rosterOf(b)).find((m) => m.name === 'Juniper')?.reachability === 'managed', 10_000, 'Juniper managed on B\'s roster');
    const answer = 'I can review the schema.';
    managed.model.script.push('Juniper', answerUnlessAnswered(answer));
    const cursor = (await call(onB, 'wait_for_messages', { worker_id: birch.worker_id, timeout: 1_000 })).last_observed_message_id;
    const asked = await api<{ number: number }>(b, 'messages.send', { roomId: ROOM, place: TEAM, text: '@all who can review the schema?' });
    const receipts = async () => (await api<{ receipts: Array<{ turns?: { order: Array<{ name: string; state: string }> }; noReply?: unknown[] }> }>(b, 'delivery.receipts', { roomId: ROOM, place: TEAM, numbers: [asked.number] })).receipts[0];
    const order = (await receipts()).turns!.order.map((t) => t.name);
    expect(order.sort()).toEqual(['Birch', 'Juniper']);
    const first = (await receipts()).turns!.order[0].name;
    const juniperTurn = () => eventually(async () => {
      const { turns } = await api<{ turns: Array<{ number: number; status: string; startedAt: string }> }>(a, 'agents.activity', { agentId: juniper.agentId });
      return turns.find((t) => t.number === 1 && t.status !== 'running');
    }, 60_000, 'Juniper\'s turn on A');
    if (first === 'Birch') {
      // Birch (connected, on B) first: Juniper's turn on A starts only after Birch answered.
      const got = await call(onB, 'wait_for_messages', { worker_id: birch.worker_id, after_message_id: cursor, timeout: 30_000 });
      expect(got.messages.map((m: { text: string }) => m.text)).toContain('@all who can review the schema?');
      expect(await api<{ turns: unknown[] }>(a, 'agents.activity', { agentId: juniper.agentId })).toMatchObject({ turns: [] });
      await send(onB, { worker_id: birch.worker_id, text: answer });
      const turn = await juniperTurn();
      expect(managed.model.script.requestsFor('Juniper')[0].prompts.join('\n')).toContain(`from Birch: "${answer}"`);
      expect(turn.status).toBe('done');
      await waitUntil(async () => (await receipts()).noReply !== undefined, 15_000, 'Juniper\'s pass on B');
      expect((await receipts()).noReply).toEqual([{ name: 'Juniper', why: 'read it and passed (said nothing)' }]);
    } else {
      // Juniper (managed, on A) first: Birch's wait on B returns the @all only after Juniper answered, with its answer.
      // Juniper's answer may come in one result and the @all, now Birch's turn, in the next.
      let after = cursor;
      let broadcast: { earlier_answers: Array<{ from: string; text: string }> } | undefined;
      while (!broadcast) {
        const got = await call(onB, 'wait_for_messages', { worker_id: birch.worker_id, after_message_id: after, timeout: 60_000 });
        expect(got.messages.length, 'a wait that returned nothing').toBeGreaterThan(0);
        after = got.last_observed_message_id;
        broadcast = got.messages.find((m: { text: string }) => m.text === '@all who can review the schema?');
      }
      expect(broadcast.earlier_answers.map((e) => [e.from, e.text])).toEqual([['Juniper', answer]]);
      expect((await juniperTurn()).status).toBe('done');
    }
  }, TURN_TEST_MS);
});
