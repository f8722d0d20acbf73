// What a paired phone may do (issue 37), over its real socket on the phone listener: the
// methods of src/shared/phoneAccess.ts go through (acting as the person, answers naming the
// phone), and every other method of the contract — and any name outside it — is refused by the
// server, call by call, changing nothing. Revoking a device closes its open socket at once.
import { afterEach, describe, expect, it } from 'vitest';
import { METHOD_NAMES } from '../../../src/shared/bridge';
import { isPhoneMethod, NOT_ON_PHONE, PHONE_METHODS } from '../../../src/shared/phoneAccess';
import { ensureRoom } from '../../../src/main/domain/rooms/rooms';
import { storeSnapshot, withAppDatabase } from '../../reliability/lib/dbChecks';
import { waitUntil } from '../../support';
import { opened, socketCaller, startPhoneApp, type PhoneApp } from './phoneHarness';

let app: PhoneApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
});

const ROOM = 'release-work';

/** Inputs a phone could send that would change something if they went through. */
const HARMFUL: Record<string, unknown> = {
  'rooms.create': { name: 'From the phone' },
  'rooms.rename': { roomId: ROOM, name: 'Renamed by a phone' },
  'rooms.archive': { roomId: ROOM, archived: true },
  'rooms.delete': { roomId: ROOM },
  'rooms.export': { roomId: ROOM, format: 'json' },
  'tasks.create': { roomId: ROOM, title: 'A phone task' },
  'memory.add': { roomId: ROOM, category: 'term', title: 'Word', body: 'Meaning' },
  'settings.set': { theme: 'dark', notifications: false },
  'phone.setup': { enabled: false },
  'phone.pair': {},
  'notifications.setTarget': { kind: 'webhook', url: 'https://collector.example/hook' },
  'auth.signOut': {},
  'setup.install': { tool: 'cursor' },
  'teams.setDefault': { place: 'local' },
  'app.openDataFolder': {},
  'app.openExternal': { url: 'https://example.com' },
};

async function pairedSocket(a: PhoneApp) {
  await a.host.app.core.store.write((tx) => ensureRoom(tx, { roomId: ROOM, kind: 'named' }));
  const key = await a.pairPhone('Pixel 8');
  const socket = a.socket(key);
  expect(await opened(socket)).toBe('open');
  return { key, socket, call: socketCaller(socket) };
}

describe('a paired phone', () => {
  it('is refused every method of the contract outside its list, call by call, and nothing changes', async () => {
    app = await startPhoneApp();
    const { call, key } = await pairedSocket(app);
    const forbidden = METHOD_NAMES.filter((m) => !isPhoneMethod(m));
    // Settings, teams, Connect agents, sign-in, adding agents, folders, exports: all outside.
    for (const m of ['settings.set', 'teams.add', 'setup.install', 'auth.startDeviceFlow', 'agents.add', 'agents.openFolder', 'rooms.export', 'phone.pair']) expect(forbidden).toContain(m);
    const settingsBefore = await app.call('settings.get', {});
    const before = withAppDatabase(app.host.app.core.dataDir, (db) => storeSnapshot(db) + JSON.stringify(db.prepare('SELECT * FROM settings ORDER BY key').all()));
    for (const method of [...forbidden, 'phone.secretBackdoor', 'admin.everything']) {
      const result = await call(method, HARMFUL[method] ?? {});
      expect(result, method).toMatchObject({ ok: false, error: { code: NOT_ON_PHONE } });
    }
    const after = withAppDatabase(app.host.app.core.dataDir, (db) => storeSnapshot(db) + JSON.stringify(db.prepare('SELECT * FROM settings ORDER BY key').all()));
    expect(after).toBe(before);
    expect(await app.call('settings.get', {})).toEqual(settingsBefore);
    expect(await app.call('phone.status', {})).toMatchObject({ enabled: true, listening: true, devices: [expect.objectContaining({ name: 'Pixel 8' })] });
    // Still paired and working after all that.
    expect((await app.https('/api/session', { headers: { origin: app.origin, 'x-letagents-key': key } })).status).toBe(200);
  });

  it('reaches every method on its list (refused only for bad input, never as a phone)', async () => {
    app = await startPhoneApp();
    const { call } = await pairedSocket(app);
    for (const method of PHONE_METHODS) {
      const result = await call(method, {});
      if (!result.ok) expect(result.error?.code, method).not.toBe(NOT_ON_PHONE);
    }
    const info = await call('app.info', {});
    expect(info).toMatchObject({ ok: true, value: { host: 'phone', device: 'Pixel 8' } });
  });

  it('posts as the person, and its answer to an approval names the phone; a second screen is told', async () => {
    app = await startPhoneApp();
    const { call } = await pairedSocket(app);
    const sent = await call('messages.send', { roomId: ROOM, text: 'On my way back.' });
    expect(sent).toMatchObject({ ok: true, value: { source: 'human' } });
    const approvals = app.host.app.hub.services.approvals;
    await approvals.ask({ owner: 'c1', source: 'channel', room_id: ROOM, session_id: null, request_id: 'abcde', agent_name: 'Juniper', tool: 'Bash', description: 'npm test', input_preview: '{}' }, null, async () => undefined);
    const number = (await approvals.shown())[0].number;
    expect(await call('approvals.decide', { number, decision: 'allow_once' })).toMatchObject({ ok: true, value: { settled: true, delivered: true } });
    const desk = await app.call('approvals.decide', { number, decision: 'deny' });
    expect(desk.settled).toBe(false);
    expect(desk.message).toMatch(/^Already settled: allowed once by .+ from Pixel 8\. Your answer changed nothing\.$/);
    const item = (await app.call('needsYou.list', {})).items.find((i) => i.approval?.number === number)!;
    expect(item.approval!.state).toMatchObject({ phase: 'delivered', via: 'Pixel 8' });
  });

  it('gets only the events its views use', async () => {
    app = await startPhoneApp();
    const { socket, call } = await pairedSocket(app);
    const events: string[] = [];
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { event?: { type: string } };
      if (frame.event) events.push(frame.event.type);
    });
    // The desktop changes phone settings (phone.changed) and the person posts (message.created).
    await app.call('phone.setup', { externalOrigin: null });
    await call('messages.send', { roomId: ROOM, text: 'hello' });
    await waitUntil(() => events.includes('message.created'));
    expect(events).not.toContain('phone.changed');
  });

  it('loses its open socket at once when revoked, and its key opens nothing after', async () => {
    app = await startPhoneApp();
    const { socket, key } = await pairedSocket(app);
    const closed = new Promise<{ code: number; reason: string }>((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })));
    const { devices } = await app.call('phone.status', {});
    expect(devices[0].connected).toBe(true);
    const after = await app.call('phone.revoke', { deviceId: devices[0].deviceId });
    expect(after.devices).toEqual([]);
    expect(await closed).toEqual({ code: 1008, reason: 'This phone was unpaired on the computer.' });
    expect(await opened(app.socket(key))).toBe(401);
    const check = await app.https('/api/session', { headers: { origin: app.origin, 'x-letagents-key': key } });
    expect(JSON.parse(check.body)).toMatchObject({ ok: false, reason: 'not_paired' });
  });
});
