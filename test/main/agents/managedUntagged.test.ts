// Issue 34 item 1 for managed agents: four REAL Claude Code agents against a scripted fake model.
// A person's message that names nobody in a fresh room starts no turn (and says so on the
// message); once the person has talked with Cedar, an untagged follow-up gives Cedar alone a turn.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupSpawned } from '../../support';
import { replyInRoom } from '../../support/fakeModels';
import { startManagedApp, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'four-agents';
const NAMES = ['Cedar', 'Birch', 'Aspen', 'Rowan'] as const;

describe('a person message that names nobody, for four managed Claude Code agents (fake model)', () => {
  it('starts no turn in a fresh room, then only the turn of the agent the person was talking with', async () => {
    app = await startManagedApp({ provider: 'claude_code' });
    await app.room(ROOM);
    const ids = new Map<string, string>();
    for (const name of NAMES) ids.set(name, (await app.call('agents.add', { provider: 'claude_code', folder: app.folder, roomId: ROOM, name, permissions: 'read_only' })).agentId);
    const turnCounts = async () => Object.fromEntries(await Promise.all(NAMES.map(async (n) => [n, (await app!.turns(ids.get(n)!)).length] as const)));

    const nobody = await app.call('messages.send', { roomId: ROOM, text: 'who knows the build?' });
    expect(nobody.wakes).toEqual({ to: 'nobody', names: [], count: 0, why: 'nobody' });
    // A bounded pause proves no turn starts (a turn starts within milliseconds of a wake).
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await turnCounts()).toEqual({ Cedar: 0, Birch: 0, Aspen: 0, Rowan: 0 });

    app.model.script.push('Cedar', ...replyInRoom('The login redirect drops the cookie; fixing it.'));
    await app.call('messages.send', { roomId: ROOM, text: '@Cedar please fix the login test' });
    expect((await app.turnEnded(ids.get('Cedar')!, 1)).status).toBe('done');

    app.model.script.push('Cedar', ...replyInRoom('The tests pass now.'));
    const followUp = await app.call('messages.send', { roomId: ROOM, text: 'and the tests?' });
    expect(followUp.wakes).toEqual({ to: 'agents', names: ['Cedar'], count: 1, why: 'partner' });
    const second = await app.turnEnded(ids.get('Cedar')!, 2);
    expect(second.status).toBe('done');
    expect(app.model.script.requestsFor('Cedar').at(-1)!.prompts.join('\n')).toContain('and the tests?');
    expect(await turnCounts()).toEqual({ Cedar: 2, Birch: 0, Aspen: 0, Rowan: 0 });
  });
});
