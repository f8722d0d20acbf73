// Why there was no reply (issue 34 item 3), with the REAL Claude Code against a fake model: a
// turn that ends without a room message records why, on the card's activity and in the
// message's receipts ("Birch read it and passed"); a turn that answers records nothing.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupSpawned } from '../../support';
import { replyInRoom, say } from '../../support/fakeModels';
import { startManagedApp, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'quiet-room';

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
});
