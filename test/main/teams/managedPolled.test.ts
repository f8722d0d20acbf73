// A managed agent's pause through the poll fallback (issue 35 item 1's leftover): both apps reach
// the team only through a transaction-mode PgBouncer, so LISTEN delivers nothing and each app
// polls (changePoll.ts). Machine A runs Juniper (the REAL Claude Code CLI is what A would run; no
// turn is taken here); B's window holds the room's roster and reloads it on the events its
// window reloads on. Pausing, resuming and removing Juniper on A reaches B's roster through B's
// poll alone, with no other change in the room (before migration 016 a pause waited for the
// room's next message or task).
import { describe, expect, it } from 'vitest';
import { runPostgresSuites } from '../../support/postgres';
import { TEAM } from '../../support/teamMachines';
import { waitUntil } from '../../support/waitUntil';
import { managedMachinesPerTest, rosterWindow, type Member } from './managedMachines';
import { machineApi as api, teamWorker as worker } from './twoMachinesSetup';

const ROOM = 'design-review';
/** A poll a second on each app: a change reaches the other machine within a few polls. */
const REACHES_MS = 10_000;

describe.skipIf(!runPostgresSuites)('a managed agent run by A, seen by B through PgBouncer\'s poll fallback (no LISTEN)', () => {
  const managed = managedMachinesPerTest({ polling: true });
  const { machines } = managed;

  it('pause on A: B\'s roster says Paused with no other change in the room; Resume and Remove reach it too', async () => {
    const { a, b } = machines;
    await worker(await b.connect(), ROOM, 'Birch');
    const storage = await b.app.teams.connections.storage(TEAM);
    await storage.ready();
    expect(storage.wakeUps()).toEqual({ mode: 'poll', pollMs: 1_000 });
    const window = rosterWindow(b, ROOM);
    try {
      await window.ready();
      const { agentId } = await api<{ agentId: string }>(a, 'agents.add', {
        provider: 'claude_code', folder: managed.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only',
      });
      await waitUntil(() => window.member('Juniper')?.reachability === 'managed', REACHES_MS, 'Juniper managed on B\'s roster');
      expect(window.member('Juniper')).toMatchObject({ machine: 'ada-laptop', ended: false });
      // Everything the add wrote has been polled: two polls of B's began after it returned.
      const polls = storage.pollCounts().polls;
      await waitUntil(() => storage.pollCounts().polls >= polls + 2, REACHES_MS, 'two polls of B after the add');
      const messages = await api<{ messages: unknown[] }>(b, 'messages.timeline', { roomId: ROOM, place: TEAM });

      await api(a, 'agents.pause', { agentId });
      await waitUntil(() => window.member('Juniper')?.reachability === 'managed_paused', REACHES_MS, 'Juniper Paused on B\'s roster');
      // Nothing else changed in the room: no message carried the pause.
      expect((await api<{ messages: unknown[] }>(b, 'messages.timeline', { roomId: ROOM, place: TEAM })).messages).toEqual(messages.messages);

      await api(a, 'agents.resume', { agentId });
      await waitUntil(() => window.member('Juniper')?.reachability === 'managed', REACHES_MS, 'Juniper taking turns again on B\'s roster');

      await api(a, 'agents.remove', { agentId });
      await waitUntil(() => window.member('Juniper')?.ended === true, REACHES_MS, 'Juniper removed on B\'s roster');
    } finally {
      window.stop();
    }
  }, 120_000);

  it('B re-checks the team when a managed-member row changes what a roster shows (its machine, the approval it waits for) or goes away, and not when only its updated_at moves', async () => {
    const { a, b } = machines;
    await worker(await b.connect(), ROOM, 'Birch');
    const storage = await b.app.teams.connections.storage(TEAM);
    await storage.ready();
    await api(a, 'agents.add', { provider: 'claude_code', folder: managed.folder, roomId: ROOM, name: 'Juniper', permissions: 'read_only' });
    const settled = async () => {
      const polls = storage.pollCounts().polls;
      await waitUntil(() => storage.pollCounts().polls >= polls + 2, REACHES_MS, 'two polls of B');
      return storage.pollCounts().rechecks;
    };
    // As a teammate's own program (or an app saying "still mine" at its start) would write it; two
    // polls with no re-check is the bounded wait that shows nothing comes.
    let rechecks = await settled();
    await machines.teamRows(`UPDATE managed_members SET updated_at = 'later' WHERE room_id = $1`, ROOM);
    expect(await settled()).toBe(rechecks);

    await machines.teamRows(`UPDATE managed_members SET host_label = 'cy-server' WHERE room_id = $1`, ROOM);
    await waitUntil(() => storage.pollCounts().rechecks > rechecks, REACHES_MS, 'a re-check after the machine\'s name changed');
    expect((await api<Member[]>(b, 'workers.list', { roomId: ROOM, place: TEAM })).find((m) => m.name === 'Juniper')?.machine).toBe('cy-server');

    // The approval it waits for (migration 17) is shown on rosters too: the same re-check.
    rechecks = await settled();
    await machines.teamRows(`UPDATE managed_members SET approval_tool = 'Bash', approval_person = 'ada', approval_since = $2 WHERE room_id = $1`, ROOM, new Date().toISOString());
    await waitUntil(() => storage.pollCounts().rechecks > rechecks, REACHES_MS, 'a re-check after it began to wait for an approval');
    expect((await api<Member[]>(b, 'workers.list', { roomId: ROOM, place: TEAM })).find((m) => m.name === 'Juniper')?.approvalWait).toMatchObject({ tool: 'Bash', person: 'ada' });

    rechecks = await settled();
    await machines.teamRows('DELETE FROM managed_members WHERE room_id = $1', ROOM);
    await waitUntil(() => storage.pollCounts().rechecks > rechecks, REACHES_MS, 'a re-check after the row went away');
    expect(await machines.teamRows('SELECT room_id FROM member_departures')).toEqual([{ room_id: ROOM }]);
  }, 120_000);
});
