// Notifications without a hosted service (issue 37): a local fake ntfy server receives exactly
// the notifications the person chose — per kind, per room (all / mentions / muted, snoozed),
// everything snoozed — with agent, room, kind and a link to the item on the paired phone's
// page, and the message text only once allowed. The target URL and token live in the keychain
// only, and the settings show the URL without its topic. A webhook gets the same as JSON.
import { afterEach, describe, expect, it } from 'vitest';
import { eventsForUi } from '../../../src/main/api';
import { NOTIFY_TARGET_ACCOUNT, snoozeUntil } from '../../../src/main/notify/notifySettings';
import { Notifier } from '../../../src/main/notify/notifier';
import { startFakeNtfy, type FakeNtfy } from '../../support/fakeNtfy';
import { setUpApi, type ApiHarness, type TestAgent } from '../api/harness';
import { waitUntil } from '../../support/waitUntil';

let ntfy: FakeNtfy | null = null;
let notifier: Notifier | null = null;
afterEach(async () => {
  await notifier?.close();
  await ntfy?.close();
  notifier = null;
  ntfy = null;
});

const meOf = async (h: ApiHarness) => (await h.app.auth.ownerIdentity()).ownerLabel.replace(/[^A-Za-z0-9_.:/-]/g, '');
const PAGE = 'https://192.168.1.20:47821';

async function setUp() {
  const h = await setUpApi();
  ntfy = await startFakeNtfy();
  notifier = new Notifier({
    settings: h.app.notifications,
    listNeedsYou: async () => (await h.call('needsYou.list', {})).items,
    listAgents: () => h.call('agents.list', {}),
    subscribe: eventsForUi(h.app),
    links: { item: (item) => `${PAGE}/#item=${item.ref.kind}:${item.ref.roomId}:${item.ref.number}`, agents: () => `${PAGE}/#agents` },
  });
  await notifier.start();
  return h;
}

/** Waits for `count` notifications, then proves no more come. */
async function received(count: number) {
  await waitUntil(() => ntfy!.received.length >= count, 5_000, `${count} notifications`);
  await quiet();
}

/** Proves nothing (more) is sent: a bounded wait past the notifier's 150 ms gathering, then its sends finish. */
async function quiet() {
  await new Promise((resolve) => setTimeout(resolve, 500));
  await notifier!.settled();
}

async function blockedTask(h: ApiHarness, agent: TestAgent, title: string) {
  const card = await h.call('tasks.create', { roomId: agent.roomId, title });
  await agent.tool('claim_task', { task_id: card.id });
  await agent.tool('update_task', { task_id: card.id, status: 'in_progress' });
  await agent.tool('update_task', { task_id: card.id, status: 'blocked' });
}

const ask = (h: ApiHarness, roomId: string, command: string) =>
  h.app.hub.services.approvals.ask(
    { owner: `c-${command}`, source: 'channel', room_id: roomId, session_id: null, request_id: 'abcde', agent_name: 'Juniper', tool: 'Bash', description: command, input_preview: '{}' },
    null,
    async () => undefined,
  );

describe('notifications to the person\'s own ntfy topic', () => {
  it('sends exactly the chosen kinds and rooms, with a link to the item, and the text only once allowed', async () => {
    const h = await setUp();
    const me = await meOf(h);
    await h.agent('lab', 'Juniper');
    const [ops, noisy] = [await h.agent('ops', 'Cedar'), await h.agent('noisy', 'Birch')];
    const settings = await h.call('notifications.setTarget', { kind: 'ntfy', url: `${ntfy!.origin}/ada-secret-topic`, token: 'tk_abc123' });
    // The URL and token are in the keychain only; the settings show no topic.
    expect(settings.target).toEqual({ kind: 'ntfy', shownUrl: `${ntfy!.origin}/…` });
    expect(JSON.parse(h.secrets.entries.get(NOTIFY_TARGET_ACCOUNT)!)).toEqual({ url: `${ntfy!.origin}/ada-secret-topic`, token: 'tk_abc123' });
    expect(h.snapshot()).not.toContain('ada-secret-topic');
    await h.call('notifications.setRoom', { roomId: 'ops', level: 'mentions' });
    await h.call('notifications.setRoom', { roomId: 'noisy', level: 'muted' });

    await ask(h, 'lab', 'npm run deploy');
    await ask(h, 'noisy', 'rm -rf build');
    await blockedTask(h, ops, 'Migrate the database');
    await ops.tool('send_message', { text: `@${me} the migration needs your password` });
    await noisy.tool('send_message', { text: `@${me} hello from a muted room` });
    await received(2);

    const got = ntfy!.received.map((r) => r.body);
    expect(got).toEqual([
      {
        topic: 'ada-secret-topic', title: 'Approval needed: Juniper in lab', message: 'Juniper in lab. Open LetAgents to see it.',
        tags: ['approval'], priority: 4, click: `${PAGE}/#item=approval:lab:1`,
      },
      {
        topic: 'ada-secret-topic', title: 'Cedar mentioned you in ops', message: 'Cedar in ops. Open LetAgents to see it.',
        tags: ['mention'], priority: 3, click: expect.stringMatching(new RegExp(`^${PAGE}/#item=mention:ops:\\d+$`)),
      },
    ]);
    expect(ntfy!.received.every((r) => r.path === '/' && r.authorization === 'Bearer tk_abc123')).toBe(true);
    // No message text went anywhere: not the command, not the mention.
    expect(JSON.stringify(got)).not.toMatch(/deploy|password/);

    await h.call('notifications.set', { includeText: true });
    await ask(h, 'lab', 'npm test');
    await received(3);
    expect(ntfy!.received.at(-1)!.body).toMatchObject({ title: 'Approval needed: Juniper in lab', message: 'Juniper asks to use Bash: npm test' });
  });

  it('stays quiet for a kind switched off, a snoozed room and everything snoozed; says so when the target refuses', async () => {
    const h = await setUp();
    const me = await meOf(h);
    const lab = await h.agent('lab', 'Juniper');
    await h.call('notifications.setTarget', { kind: 'ntfy', url: `${ntfy!.origin}/topic` });
    await h.call('notifications.set', { kinds: { approval: false } });
    await ask(h, 'lab', 'make');
    await h.call('notifications.setRoom', { roomId: 'lab', snooze: '1h' });
    await lab.tool('send_message', { text: `@${me} while snoozed` });
    await quiet();
    expect(ntfy!.received).toEqual([]);

    await h.call('notifications.setRoom', { roomId: 'lab', snooze: 'off' });
    const all = await h.call('notifications.set', { snooze: '8h' });
    expect(all.snoozedUntil).not.toBeNull();
    await lab.tool('send_message', { text: `@${me} still quiet` });
    await quiet();
    expect(ntfy!.received).toEqual([]);

    await h.call('notifications.set', { snooze: 'off' });
    await lab.tool('send_message', { text: `@${me} now you hear me` });
    await received(1);
    expect(ntfy!.received.map((r) => r.body.title)).toEqual(['Juniper mentioned you in lab']);

    ntfy!.answerWith(403);
    expect(await h.call('notifications.test', {})).toEqual({ sent: false, message: 'Not sent: the ntfy server answered 403.' });
  });

  it('posts the same facts to a generic webhook, and refuses a target that would leak', async () => {
    const h = await setUp();
    await h.agent('lab', 'Juniper');
    expect((await h.fail('notifications.setTarget', { kind: 'webhook', url: 'http://hooks.example.com/x' })).message).toContain('https: only');
    expect((await h.fail('notifications.setTarget', { kind: 'ntfy', url: 'https://user:pass@ntfy.sh/topic' })).message).toContain('no user name or password');
    expect((await h.fail('notifications.setTarget', { kind: 'ntfy', url: 'https://ntfy.sh/' })).message).toContain('names its topic');
    expect((await h.call('notifications.get', {})).target).toBeNull();
    await h.call('notifications.setTarget', { kind: 'webhook', url: `${ntfy!.origin}/hooks/letagents` });
    await ask(h, 'lab', 'cargo build');
    await received(1);
    expect(ntfy!.received).toEqual([
      {
        path: '/hooks/letagents', authorization: null,
        body: {
          kind: 'approval', agent: 'Juniper', room: 'lab', roomId: 'lab', place: 'local', title: 'Approval needed: Juniper in lab', text: null,
          link: `${PAGE}/#item=approval:lab:1`, app: 'LetAgents', at: expect.any(String),
        },
      },
    ]);
  });

  it('tells of a finished turn only once "turn finished" is switched on', async () => {
    const h = await setUpApi();
    ntfy = await startFakeNtfy();
    // The agents as agents.list shows them; the test ends their turns.
    const agent = { agentId: 'a1', name: 'Asker', roomId: 'lab', roomName: 'lab', lastTurn: { number: 1, status: 'done', startedAt: 't', endedAt: 't' } };
    const listeners = new Set<(event: { type: 'agent.changed'; agentId: string }) => void>();
    notifier = new Notifier({
      settings: h.app.notifications,
      listNeedsYou: async () => [],
      listAgents: async () => [structuredClone(agent)] as never,
      subscribe: (listener) => (listeners.add(listener as never), () => listeners.clear()),
      links: { item: () => null, agents: () => `${PAGE}/#agents` },
    });
    await notifier.start();
    await h.call('notifications.setTarget', { kind: 'ntfy', url: `${ntfy!.origin}/topic` });
    const turnEnds = (number: number) => {
      agent.lastTurn = { ...agent.lastTurn, number };
      for (const listener of listeners) listener({ type: 'agent.changed', agentId: 'a1' });
    };
    turnEnds(2);
    await quiet();
    expect(ntfy!.received).toEqual([]);
    await h.call('notifications.set', { kinds: { turn_finished: true } });
    turnEnds(3);
    await received(1);
    expect(ntfy!.received[0].body).toMatchObject({ title: 'Asker finished a turn in lab (done)', tags: ['turn_finished'], click: `${PAGE}/#agents` });
  });

  it('snoozes "until tomorrow" to 9:00 the next day, on this computer\'s clock', () => {
    const evening = new Date(2026, 2, 14, 22, 30);
    expect(new Date(snoozeUntil('tomorrow', evening)!).getTime()).toBe(new Date(2026, 2, 15, 9, 0).getTime());
    expect(snoozeUntil('1h', evening)).toBe(new Date(evening.getTime() + 3_600_000).toISOString());
    expect(snoozeUntil('off', evening)).toBeNull();
  });
});
