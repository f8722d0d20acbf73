// Why there was no reply (issue 34 item 3), with the REAL Claude Code against a fake model: a
// turn that ends without a room message records why, on the card's activity and in the
// message's receipts ("Birch read it and passed"); a turn that answers records nothing. Each
// reason comes from what Claude Code 2.1.332 itself reports: its answer cut at the output limit,
// a turn that wrote no text at all, a tool the person denied in an "Ask me" turn, and one whose
// approval ran out with nobody answering (a Deny in the same turn still wins).
import { afterEach, describe, expect, it } from 'vitest';
import { waitsForPerson } from '../../../src/shared/model/needsYou';
import { cleanupSpawned } from '../../support';
import { callBuiltInTool, cutAtOutputLimit, replyInRoom, say, sayNothingAtAll } from '../../support/fakeModels';
import { startManagedApp, waitUntil, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'quiet-room';
/** The shortest approval limit (a minute), then the rest of a real CLI's turn on a loaded machine. */
const RUNS_OUT_MS = 60_000 + 60_000;

/** The number of Birch's next request waiting for the person (after request `after`), once it asks. */
async function bashAsked(a: ManagedApp, after = 0): Promise<number> {
  let number: number | undefined;
  await waitUntil(async () => {
    number = (await a.call('needsYou.list', {})).items.find((item) => item.approval !== null && item.approval.number > after && waitsForPerson(item))?.approval?.number;
    return number !== undefined;
  }, 30_000, 'Birch asks to use Bash');
  return number!;
}

/** Where request `number` stands in Needs you (pending, expired…). */
async function approvalPhase(a: ManagedApp, number: number) {
  return (await a.call('needsYou.list', {})).items.find((item) => item.approval?.number === number)?.approval?.state.phase;
}

describe('a managed turn that ends without a room message (fake model)', () => {
  it('says why on the activity and in the receipts; an answered message says nothing of the kind', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const birch = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Birch', permissions: 'read_only' });
    app.model.script.push('Birch', say('Others have this covered; nothing to add.'));
    const asked = await app.call('messages.send', { roomId: ROOM, text: '@Birch anything to add?' });
    const turn = await app.turnEnded(birch.agentId, 1);
    expect(turn.status, JSON.stringify(turn)).toBe('done');
    expect(turn.entries.map((e) => e.text)).toContain('No reply in the room: Birch read it and passed (said nothing).');
    const { receipts } = await app.call('delivery.receipts', { roomId: ROOM, numbers: [asked.number] });
    expect(receipts[0].noReply).toEqual([{ name: 'Birch', why: 'read it and passed (said nothing)' }]);

    app.model.script.push('Birch', ...replyInRoom('Yes: the cache key is wrong.'));
    const second = await app.call('messages.send', { roomId: ROOM, text: '@Birch and now?' });
    const answered = await app.turnEnded(birch.agentId, 2);
    expect(answered.entries.map((e) => e.text).filter((t) => t.startsWith('No reply'))).toEqual([]);
    const again = await app.call('delivery.receipts', { roomId: ROOM, numbers: [second.number] });
    expect(again.receipts[0].noReply).toBeUndefined();
  });

  it('says the answer hit the output limit, or was empty, from what Claude Code reported', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const birch = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Birch', permissions: 'read_only' });

    app.model.script.push('Birch', ...cutAtOutputLimit('The cause is that the'));
    const long = await app.call('messages.send', { roomId: ROOM, text: '@Birch explain the whole cache design' });
    const cut = await app.turnEnded(birch.agentId, 1);
    expect(cut.status, JSON.stringify(cut)).toBe('failed');
    expect(cut.entries.map((e) => e.text)).toContain('No reply in the room: Birch read it, but its answer hit the output limit.');
    expect((await app.call('delivery.receipts', { roomId: ROOM, numbers: [long.number] })).receipts[0].noReply).toEqual([
      { name: 'Birch', why: 'read it, but its answer hit the output limit' },
    ]);

    app.model.script.push('Birch', ...sayNothingAtAll());
    const blank = await app.call('messages.send', { roomId: ROOM, text: '@Birch still there?' });
    const empty = await app.turnEnded(birch.agentId, 2);
    expect(empty.status, JSON.stringify(empty)).toBe('done');
    expect(empty.entries.map((e) => e.text)).toContain('No reply in the room: Birch read it, but its answer was empty.');
    expect((await app.call('delivery.receipts', { roomId: ROOM, numbers: [blank.number] })).receipts[0].noReply).toEqual([
      { name: 'Birch', why: 'read it, but its answer was empty' },
    ]);
  });

  it('says a person denied a tool when an "Ask me" turn was refused and then said nothing in the room', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const birch = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Birch', permissions: 'ask' });
    app.model.script.push('Birch', callBuiltInTool('Bash', { command: 'rm -rf build', description: 'Clean the build' }), say('I was not allowed to clean the build.'));
    const asked = await app.call('messages.send', { roomId: ROOM, text: '@Birch clean the build please' });
    await app.call('approvals.decide', { number: await bashAsked(app), decision: 'deny' });
    const turn = await app.turnEnded(birch.agentId, 1);
    expect(turn.status, JSON.stringify(turn)).toBe('done');
    expect(turn.entries.map((e) => e.text)).toContain('No reply in the room: Birch read it, but you denied a tool.');
    expect((await app.call('delivery.receipts', { roomId: ROOM, numbers: [asked.number] })).receipts[0].noReply).toEqual([
      { name: 'Birch', why: 'read it, but you denied a tool' },
    ]);
  });

  it('says the approval ran out when nobody answered an "Ask me" request in time; a Deny in the same turn still reads as denied', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    // The shortest limit the settings allow (the tests' knob): a minute.
    await app.call('settings.set', { approvalTimeoutMinutes: 1 });
    const birch = await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name: 'Birch', permissions: 'ask' });

    // Nobody answers: the request runs out, the agent says so to itself, and posts nothing in the room.
    app.model.script.push('Birch', callBuiltInTool('Bash', { command: 'rm -rf build', description: 'Clean the build' }), say('Nobody answered, so I did not clean the build.'));
    const asked = await app.call('messages.send', { roomId: ROOM, text: '@Birch clean the build please' });
    const first = await bashAsked(app);
    const ranOut = await app.turnEnded(birch.agentId, 1, RUNS_OUT_MS);
    expect(ranOut.status, JSON.stringify(ranOut)).toBe('done');
    expect(await approvalPhase(app, first)).toBe('expired');
    expect(ranOut.entries.map((e) => e.text)).toContain('No reply in the room: Birch read it, but your approval ran out (no answer in time).');
    expect((await app.call('delivery.receipts', { roomId: ROOM, numbers: [asked.number] })).receipts[0].noReply).toEqual([
      { name: 'Birch', why: 'read it, but your approval ran out (no answer in time)' },
    ]);

    // One request denied, the next left to run out: the person's Deny is the cause closest to them.
    app.model.script.push(
      'Birch',
      callBuiltInTool('Bash', { command: 'rm -rf build', description: 'Clean the build' }),
      callBuiltInTool('Bash', { command: 'rm -rf dist', description: 'Clean the output' }),
      say('I was not allowed to clean anything.'),
    );
    const again = await app.call('messages.send', { roomId: ROOM, text: '@Birch try once more' });
    const denied = await bashAsked(app, first);
    await app.call('approvals.decide', { number: denied, decision: 'deny' });
    const second = await bashAsked(app, denied);
    const both = await app.turnEnded(birch.agentId, 2, RUNS_OUT_MS);
    expect(await approvalPhase(app, second)).toBe('expired');
    expect(both.entries.map((e) => e.text)).toContain('No reply in the room: Birch read it, but you denied a tool.');
    expect((await app.call('delivery.receipts', { roomId: ROOM, numbers: [again.number] })).receipts[0].noReply).toEqual([
      { name: 'Birch', why: 'read it, but you denied a tool' },
    ]);
  }, 2 * RUNS_OUT_MS + 60_000);
});
