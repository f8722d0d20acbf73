import { beforeEach, describe, expect, it, vi } from 'vitest';
import { NeedsYouNotifier } from '../../../src/main/electron/notifications';
import type { OpenTarget } from '../../../src/main/electron/openTarget';
import { ShellStatus } from '../../../src/main/electron/shellStatus';
import { Notification, resetElectronMock } from './electronMock';
import { fakeApi, mentionItem, requestItem, reviewItem, unansweredItem } from './fakeApi';

vi.mock('electron', () => import('./electronMock'));

beforeEach(resetElectronMock);

async function started(options: { focused?: boolean } = {}) {
  const world = fakeApi({ needsYou: [requestItem(1, 'Juniper', 'Already waiting at start')] });
  const status = new ShellStatus(world.api);
  const opened: OpenTarget[] = [];
  const notifier = new NeedsYouNotifier({ api: world.api, status, isWindowFocused: () => options.focused ?? false, open: (t) => opened.push(t) });
  notifier.start();
  await status.start();
  /** Changes the queue and lets the notifier react (it reads the setting first). */
  const update = async (items: typeof world.state.needsYou) => {
    world.state.needsYou = items;
    await status.refresh();
    await new Promise((resolve) => setTimeout(resolve, 10));
  };
  return { ...world, status, notifier, opened, update };
}

const shown = () => Notification.instances.filter((n) => n.shown).map((n) => n.options);

describe('native notifications', () => {
  it('stays quiet about what was already waiting when the app started', async () => {
    await started();
    expect(Notification.instances).toEqual([]);
  });

  it('announces a new request from an agent; clicking opens "Needs you"', async () => {
    const { update, opened } = await started();
    await update([requestItem(2, 'Rowan', 'Which database should we use?'), requestItem(1, 'Juniper', 'Already waiting at start')]);
    expect(shown()).toEqual([{ title: 'Rowan needs you', body: 'Which database should we use? · ada/app', silent: false }]);
    Notification.instances[0].emit('click');
    expect(opened).toEqual([{ view: 'needsYou' }]);
  });

  it('announces a mention of the person; clicking opens its thread at the message', async () => {
    const { update, opened } = await started();
    await update([mentionItem(9, 'Juniper', '@ada can you look at\n  this?', 7)]);
    expect(shown()).toEqual([{ title: 'Juniper mentioned you', body: '@ada can you look at this? · ada/app', silent: false }]);
    Notification.instances[0].emit('click');
    expect(opened).toEqual([{ view: 'room', roomId: 'github.com/ada/app', tab: 'chat', threadRoot: 7, focus: 9 }]);
  });

  it('announces a message an agent has not picked up in the words of the item; clicking opens "Needs you"', async () => {
    const { update, opened } = await started();
    await update([unansweredItem(1, 'Birch')]);
    expect(shown()).toEqual([{ title: "Birch hasn't picked up your message", body: 'You wrote to Birch (msg_4), and after 2 minutes it has not reached Birch. · ada/app', silent: false }]);
    Notification.instances[0].emit('click');
    expect(opened).toEqual([{ view: 'needsYou' }]);
  });

  it('announces a task entering review; clicking opens it on the board', async () => {
    const { update, opened } = await started();
    await update([reviewItem(3, 'Add login page')]);
    expect(shown()).toEqual([{ title: 'Task ready for review', body: 'Add login page · ada/app', silent: false }]);
    Notification.instances[0].emit('click');
    expect(opened).toEqual([{ view: 'room', roomId: 'github.com/ada/app', tab: 'board', task: 3 }]);
  });

  it('announces a task again when it comes back into review', async () => {
    const { update } = await started();
    await update([reviewItem(3, 'Add login page')]);
    await update([]);
    await update([reviewItem(3, 'Add login page')]);
    expect(shown().map((n) => n.title)).toEqual(['Task ready for review', 'Task ready for review']);
  });

  it('shows nothing when the "notifications" setting is off', async () => {
    const { update, state } = await started();
    state.notifications = false;
    await update([requestItem(2, 'Rowan', 'Which database?')]);
    expect(Notification.instances).toEqual([]);
  });

  it('shows nothing while the person is looking at the window', async () => {
    const { update } = await started({ focused: true });
    await update([requestItem(2, 'Rowan', 'Which database?')]);
    expect(Notification.instances).toEqual([]);
  });

  it('shows nothing where the system has no notifications', async () => {
    Notification.supported = false;
    const { update } = await started();
    await update([requestItem(2, 'Rowan', 'Which database?')]);
    expect(Notification.instances).toEqual([]);
  });

  it('sums up a burst of new items in one notification', async () => {
    const { update, opened } = await started();
    await update([1, 2, 3, 4].map((n) => requestItem(n + 10, 'Rowan', `Question ${n}`)));
    expect(shown()).toEqual([{ title: '4 new things need you', body: 'Open "Needs you" to see them.', silent: false }]);
    Notification.instances[0].emit('click');
    expect(opened).toEqual([{ view: 'needsYou' }]);
  });

  it('shortens long texts', async () => {
    const { update } = await started();
    await update([mentionItem(9, 'Juniper', 'x'.repeat(1000))]);
    const body = shown()[0].body;
    expect(body.endsWith('… · ada/app')).toBe(true);
    expect(Array.from(body).length).toBeLessThan(200);
  });

  it('stops announcing when stopped, and closes what it showed', async () => {
    const { update, notifier } = await started();
    await update([requestItem(2, 'Rowan', 'Which database?')]);
    notifier.stop();
    await update([requestItem(3, 'Rowan', 'Another?'), requestItem(2, 'Rowan', 'Which database?')]);
    expect(Notification.instances).toHaveLength(1);
    expect(Notification.instances[0].closed).toBe(true);
  });
});
