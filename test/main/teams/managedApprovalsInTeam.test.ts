// An "Ask me" managed agent in a team room: machine A ("ada-laptop") runs Juniper with the REAL
// Claude Code CLI against a fake model server (the model is the only fake); a person on machine B
// ("bo-desktop") mentions it. While its command waits for A's person, B's roster (as B's window
// holds it, reloaded on the events it reloads on) says so — whose answer, which tool, never the
// command — and B cannot allow or deny it; once A allows, the wait clears on B and Juniper's answer
// reaches B (a turn stopped while it waits clears it too, and one stopped while the team's
// database is down clears it once the database is back; a request that runs out clears it; a
// wait a crashed A left clears once A, started again with the database down, can read it).
// Once with LISTEN/NOTIFY, once through PgBouncer's poll fallback alone.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { personLabelIn } from '../../../src/main/auth/personLabel';
import type { NeedsYouItem } from '../../../src/shared/types';
import { callBuiltInTool, replyInRoom, say, type ModelStep } from '../../support/fakeModels';
import { runPostgresSuites } from '../../support/postgres';
import { TEAM } from '../../support/teamMachines';
import { waitUntil } from '../../support/waitUntil';
import { managedMachinesPerTest, rosterWindow, type ManagedMachines, type Member } from './managedMachines';
import { machineApi as api, teamWorker as worker } from './twoMachinesSetup';

const ROOM = 'design-review';
/** A real CLI's turn takes longer than the default test time. */
const TURN_TEST_MS = 120_000;
/** A change reaches the other machine within a few polls (one a second) or at once by NOTIFY. */
const REACHES_MS = 15_000;
/** The shortest approval limit (a minute) and a few polls. */
const RUNS_OUT_MS = 60_000 + REACHES_MS;
const REFUSED = "allowed or denied only on the computer that runs it (or that computer's paired phone)";

async function approvalsOn(machine: ManagedMachines['machines']['a']): Promise<NeedsYouItem[]> {
  return (await api<{ items: NeedsYouItem[] }>(machine, 'needsYou.list', {})).items.filter((item) => item.approval !== null);
}

/** Juniper as `machine`'s roster reads it afresh from the team's database (undefined while it cannot be read). */
async function juniperOn(machine: ManagedMachines['machines']['b']): Promise<Member | undefined> {
  const listed = await machine.api('workers.list', { roomId: ROOM, place: TEAM });
  return listed.ok ? (listed.value as Member[]).find((m) => m.name === 'Juniper') : undefined;
}

/**
 * Birch on B, Juniper at "Ask me" on A, whose model gives `steps`, and B's person asking it for
 * `text`: once B's roster (its window, which the caller stops) shows Juniper waiting for approval.
 */
async function juniperWaitingOnB(managed: ManagedMachines, steps: ModelStep[], text: string) {
  const { a, b } = managed.machines;
  await worker(await b.connect(), ROOM, 'Birch');
  const window = rosterWindow(b, ROOM);
  try {
    await window.ready();
    const { agentId } = await api<{ agentId: string }>(a, 'agents.add', { provider: 'claude_code', folder: managed.folder, roomId: ROOM, name: 'Juniper', permissions: 'ask' });
    managed.model.script.push('Juniper', ...steps);
    const asked = await api<{ number: number }>(b, 'messages.send', { roomId: ROOM, place: TEAM, text });
    await waitUntil(() => window.member('Juniper')?.approvalWait != null, 60_000, 'Juniper waiting for approval on B\'s roster');
    return { window, agentId, asked };
  } catch (error) {
    window.stop();
    throw error;
  }
}

/** The whole story: B sees the wait, cannot decide it, and sees it clear and the answer arrive once A allows. */
async function waitSeenOnBDecidedOnA(managed: ManagedMachines): Promise<void> {
  const { a, b } = managed.machines;
  await worker(await b.connect(), ROOM, 'Birch');
  const window = rosterWindow(b, ROOM);
  try {
    await window.ready();
    const juniper = await api<{ agentId: string }>(a, 'agents.add', {
      provider: 'claude_code', folder: managed.folder, roomId: ROOM, name: 'Juniper', permissions: 'ask',
    });
    await waitUntil(() => window.member('Juniper')?.reachability === 'managed', REACHES_MS, 'Juniper managed on B\'s roster');
    expect(window.member('Juniper')?.approvalWait).toBeNull();

    const file = join(managed.folder, 'schema-notes.md');
    managed.model.script.push('Juniper', callBuiltInTool('Bash', { command: `touch ${file}`, description: 'Create the notes' }), ...replyInRoom('Created the notes file.'));
    await api(b, 'messages.send', { roomId: ROOM, place: TEAM, text: '@Juniper please create the notes file' });

    // B: Juniper waits for A's person (as the team knows them), for a command; the command stays on A.
    await waitUntil(() => window.member('Juniper')?.approvalWait != null, 60_000, 'Juniper waiting for approval on B\'s roster');
    const ada = await personLabelIn(a.app.auth, TEAM);
    expect(window.member('Juniper')?.approvalWait).toMatchObject({ person: ada, tool: 'Bash', text: `Juniper is waiting for ${ada} to approve a command (Bash)` });
    expect(JSON.stringify(window.member('Juniper'))).not.toContain('schema-notes');
    expect(JSON.stringify(await managed.machines.teamRows('SELECT * FROM managed_members'))).not.toContain('schema-notes');
    expect(await approvalsOn(b)).toEqual([]);
    const timeline = await api<{ messages: Array<{ text: string }> }>(b, 'messages.timeline', { roomId: ROOM, place: TEAM });
    expect(timeline.messages.map((m) => m.text).join('\n')).not.toContain('schema-notes');

    // A's person sees the whole command in Needs you.
    const [asked] = await approvalsOn(a);
    expect(asked.approval).toMatchObject({ tool: 'Bash', summary: `touch ${file}`, state: { phase: 'waiting' } });
    const number = asked.approval!.number;

    // B cannot decide it: not by its number, not by a team room's item reference.
    const decided = await b.api('approvals.decide', { number, decision: 'allow_once' });
    expect(decided.ok).toBe(false);
    expect(!decided.ok && decided.error).toMatchObject({ code: 'not_found', message: expect.stringContaining(REFUSED) });
    const dismissed = await b.api('needsYou.dismiss', { item: { kind: 'approval', roomId: ROOM, place: TEAM, number } });
    expect(dismissed.ok).toBe(false);
    expect(!dismissed.ok && dismissed.error).toMatchObject({ code: 'not_found', message: expect.stringContaining(REFUSED) });
    // Nothing changed on A: still waiting, the command not run, B still shows the wait.
    expect((await approvalsOn(a)).find((item) => item.approval?.number === number)?.approval?.state.phase).toBe('waiting');
    expect(existsSync(file)).toBe(false);
    expect(window.member('Juniper')?.approvalWait).toMatchObject({ tool: 'Bash' });

    // A allows: the wait clears on B, and Juniper's answer reaches B.
    expect(await api(a, 'approvals.decide', { number, decision: 'allow_once' })).toMatchObject({ settled: true, delivered: true });
    await waitUntil(() => window.member('Juniper')?.approvalWait === null, REACHES_MS, 'the wait cleared on B\'s roster');
    await waitUntil(async () => {
      const page = await api<{ messages: Array<{ source: string; text: string; sender: { name: string } }> }>(b, 'messages.timeline', { roomId: ROOM, place: TEAM });
      return page.messages.some((m) => m.source === 'agent' && m.sender.name === 'Juniper' && m.text === 'Created the notes file.');
    }, 60_000, 'Juniper\'s answer on B');
    expect(existsSync(file)).toBe(true);
    await waitUntil(async () => {
      const { turns } = await api<{ turns: Array<{ number: number; status: string }> }>(a, 'agents.activity', { agentId: juniper.agentId });
      return turns.some((t) => t.number === 1 && t.status === 'done');
    }, 30_000, 'Juniper\'s turn done on A');
  } finally {
    window.stop();
  }
}

describe.skipIf(!runPostgresSuites)('an "Ask me" managed agent in a team room (real Claude Code, fake model): the team sees it wait; only its computer decides', () => {
  const managed = managedMachinesPerTest();

  it('B shows Juniper waiting for A\'s person (no command), cannot allow or deny it; A allows: it clears on B and the answer reaches B', async () => {
    await waitSeenOnBDecidedOnA(managed);
  }, TURN_TEST_MS);

  it('a turn stopped on A while it waits clears the wait on B too', async () => {
    const never = join(managed.folder, 'never');
    const { window, agentId } = await juniperWaitingOnB(managed, [callBuiltInTool('Bash', { command: `touch ${never}`, description: 'Never runs' }), ...replyInRoom('Never said.')], '@Juniper please try it');
    try {
      await api(managed.machines.a, 'agents.stop', { agentId });
      await waitUntil(() => window.member('Juniper')?.approvalWait === null, REACHES_MS, 'the wait cleared on B once the turn stopped');
      expect(existsSync(never)).toBe(false);
    } finally {
      window.stop();
    }
  }, TURN_TEST_MS);
});

describe.skipIf(!runPostgresSuites)('an approval wait in a team room that ends unanswered: it runs out, or ends while the database is down', () => {
  const managed = managedMachinesPerTest();

  it('runs out: the wait clears on B, and the turn reads the same on both machines as it does in a room of one computer', async () => {
    const { a, b } = managed.machines;
    await api(a, 'settings.set', { approvalTimeoutMinutes: 1 });
    const file = join(managed.folder, 'unanswered');
    const steps = [callBuiltInTool('Bash', { command: `touch ${file}`, description: 'Create it' }), say('Nobody answered, so I did not create it.')];
    const { window, agentId, asked } = await juniperWaitingOnB(managed, steps, '@Juniper please create the file');
    try {
      // Nobody answers: after the limit (the shortest, a minute) it is denied, and the wait clears on B.
      await waitUntil(() => window.member('Juniper')?.approvalWait === null, RUNS_OUT_MS, 'the wait cleared on B once the approval ran out');
      const [item] = await approvalsOn(a);
      expect(item.approval?.state.phase).toBe('expired');
      await waitUntil(async () => {
        const { turns } = await api<{ turns: Array<{ number: number; status: string }> }>(a, 'agents.activity', { agentId });
        return turns.some((t) => t.number === 1 && t.status === 'done');
      }, 60_000, 'Juniper\'s turn done on A');
      expect(existsSync(file)).toBe(false);
      // What a room of one computer records for such a turn (noReply.ts): the approval ran out, and the agent posted nothing.
      const { turns } = await api<{ turns: Array<{ number: number; entries: Array<{ text: string }> }> }>(a, 'agents.activity', { agentId });
      expect(turns.find((t) => t.number === 1)?.entries.map((e) => e.text)).toContain('No reply in the room: Juniper read it, but your approval ran out (no answer in time).');
      const receiptsOn = async (machine: typeof a) =>
        (await api<{ receipts: Array<{ noReply?: unknown }> }>(machine, 'delivery.receipts', { roomId: ROOM, place: TEAM, numbers: [asked.number] })).receipts[0].noReply;
      await waitUntil(async () => (await receiptsOn(b)) !== undefined, REACHES_MS, 'the no-reply reason on B');
      expect(await receiptsOn(b)).toEqual([{ name: 'Juniper', why: 'read it, but your approval ran out (no answer in time)' }]);
      expect(await receiptsOn(a)).toEqual(await receiptsOn(b));
    } finally {
      window.stop();
    }
  }, RUNS_OUT_MS + TURN_TEST_MS);

  it('is cleared on B once the database is back (the turn stopped on A during the outage)', async () => {
    const { a, b, cluster } = managed.machines;
    const never = join(managed.folder, 'never');
    const { window, agentId } = await juniperWaitingOnB(managed, [callBuiltInTool('Bash', { command: `touch ${never}`, description: 'Never runs' }), ...replyInRoom('Never said.')], '@Juniper please try it');
    // From here B's roster is read afresh once the database is back.
    window.stop();
    const warnings: string[] = [];
    const warn = vi.spyOn(console, 'warn').mockImplementation((...args: unknown[]) => void warnings.push(args.map(String).join(' ')));
    try {
      cluster.kill();
      try {
        await waitUntil(() => a.app.places.state(TEAM).status === 'offline', 15_000, 'A sees the team offline');
        await api(a, 'agents.stop', { agentId });
        // The end of the wait could not be written: A says so (and, before, kept the wait there for good).
        await waitUntil(() => warnings.some((w) => w.includes(`could not show agent ${agentId}'s wait`)), 15_000, 'A failed to clear the wait');
      } finally {
        cluster.start();
      }
      await waitUntil(async () => (await juniperOn(b))?.approvalWait === null, 30_000, 'the wait cleared on B once the database is back');
    } finally {
      warn.mockRestore();
    }
  }, TURN_TEST_MS);
});

describe.skipIf(!runPostgresSuites)('a wait a crashed app left on its agent\'s row', () => {
  const managed = managedMachinesPerTest();

  it('is cleared once the team\'s database can be read, when the app started again while it could not', async () => {
    const { b, cluster, teamRows } = managed.machines;
    await worker(await b.connect(), ROOM, 'Birch');
    const juniper = await api<{ agentId: string }>(managed.machines.a, 'agents.add', { provider: 'claude_code', folder: managed.folder, roomId: ROOM, name: 'Juniper', permissions: 'ask' });
    await waitUntil(async () => (await juniperOn(b))?.reachability === 'managed', REACHES_MS, 'Juniper managed on B\'s roster');

    // A stops while Juniper waits (the wait its app wrote stays on the row), and starts again while the database is down.
    let down = false;
    const again = await managed.startAgainA(async () => {
      await teamRows('UPDATE managed_members SET approval_tool = $1, approval_person = $2, approval_since = $3 WHERE agent_id = $4', 'Bash', 'ada', new Date().toISOString(), juniper.agentId);
      expect((await juniperOn(b))?.approvalWait).toMatchObject({ tool: 'Bash' });
      cluster.kill();
      down = true;
    }).catch((error: unknown) => {
      if (down) cluster.start();
      throw error;
    });
    try {
      await waitUntil(() => again.app.places.state(TEAM).status === 'offline', 15_000, 'A started again with the team offline');
    } finally {
      cluster.start();
    }
    try {
      await waitUntil(async () => (await juniperOn(b))?.approvalWait === null, 30_000, 'the wait cleared on B once the database is back');
    } finally {
      await again.close();
    }
  }, TURN_TEST_MS);
});

describe.skipIf(!runPostgresSuites)('the same through PgBouncer\'s poll fallback (no LISTEN)', () => {
  const managed = managedMachinesPerTest({ polling: true });

  it('B\'s poll shows the wait and its end, with the same refusals', async () => {
    await waitSeenOnBDecidedOnA(managed);
  }, TURN_TEST_MS);
});
