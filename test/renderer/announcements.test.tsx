// @vitest-environment happy-dom
// What a screen reader hears without looking (issue 17): new messages in the open room come
// in batches, never one announcement per message; the person's own messages are not news
// (in a team room, only theirs: other people's are);
// a task move and a "Needs you" arrival are each said once; and the timeline is a list whose
// messages are named by author and time.
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import type { TimelineMessage } from '../../src/shared/types';
import { roomRoute } from '../../src/renderer/src/app/navigation';
import { BATCH_MS } from '../../src/renderer/src/views/chat/useMessageAnnouncements';
import { announcements, renderApp } from './support/renderApp';
import { DEMO_REPO_ROOM, demoState } from './support/demoSeed';
import { agentPerson, message, needsYouItem, person } from './support/fakeData';
import { installLayout } from './support/layout';

beforeAll(installLayout);
afterEach(() => {
  vi.useRealTimers();
  cleanup();
});

const atlas = agentPerson('Atlas');
const birch = agentPerson('Birch', 'Codex');

/** Opens the demo repo room's chat and waits for its messages; timers are fake from then on. */
async function openChat() {
  const rendered = renderApp({ state: demoState(), route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }) });
  await screen.findByText(/Pushing a fix/);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const before = announcements().length;
  return { ...rendered, heard: () => announcements().slice(before) };
}

const post = (api: Awaited<ReturnType<typeof openChat>>['api'], sender: typeof atlas, text: string, extra: Partial<TimelineMessage> = {}) =>
  act(() => void api.post(DEMO_REPO_ROOM, message(DEMO_REPO_ROOM, 0, sender, text, extra)));

describe('new messages in the open room', () => {
  it('are said in one batch when several arrive together: "3 new messages from Atlas and Birch"', async () => {
    const { api, heard } = await openChat();
    post(api, atlas, 'Branch cut.');
    post(api, birch, 'Tests are green.');
    post(api, atlas, 'Tagging now.');
    act(() => void vi.advanceTimersByTime(BATCH_MS - 1));
    expect(heard()).toEqual([]);
    act(() => void vi.advanceTimersByTime(1));
    expect(heard()).toEqual(['3 new messages from Atlas and Birch']);
    act(() => void vi.advanceTimersByTime(10 * BATCH_MS));
    expect(heard()).toHaveLength(1);
  });

  it('a lone message is read out with who wrote it', async () => {
    const { api, heard } = await openChat();
    post(api, birch, 'The **deploy** finished.');
    act(() => void vi.advanceTimersByTime(BATCH_MS));
    expect(heard()).toEqual(['New message from Birch: The **deploy** finished.']);
  });

  it('a busy room is never read message by message', async () => {
    const { api, heard } = await openChat();
    for (let i = 1; i <= 12; i++) {
      post(api, i % 2 ? atlas : birch, `Progress ${i}.`);
      act(() => void vi.advanceTimersByTime(400));
    }
    act(() => void vi.advanceTimersByTime(BATCH_MS));
    const said = heard();
    expect(said.length).toBeLessThanOrEqual(3);
    expect(said.every((line) => /^\d+ new messages from (Atlas and Birch|Birch and Atlas)$/.test(line))).toBe(true);
    expect(said.reduce((sum, line) => sum + Number(line.split(' ')[0]), 0)).toBe(12);
  });

  it('two batches that read alike are both said', async () => {
    const { api, heard } = await openChat();
    for (const round of [1, 2]) {
      post(api, atlas, `Round ${round}, first.`);
      post(api, birch, `Round ${round}, second.`);
      act(() => void vi.advanceTimersByTime(BATCH_MS));
    }
    expect(heard()).toEqual(['2 new messages from Atlas and Birch', '2 new messages from Atlas and Birch']);
  });

  it("the person's own messages are not news", async () => {
    const { api, heard } = await openChat();
    post(api, person(api.state.info.person.name), 'I am here too.');
    act(() => void vi.advanceTimersByTime(5 * BATCH_MS));
    expect(heard()).toEqual([]);
  });

  it("in a team, the person's own message (under their team name) is not news; another person's is", async () => {
    const { api, heard } = await openChat();
    post(api, person('ada@laptop'), 'Mine, under my team name.', { fromYou: true });
    act(() => void vi.advanceTimersByTime(5 * BATCH_MS));
    expect(heard()).toEqual([]);
    post(api, person('bob@desktop'), 'Bob from his machine.', { fromYou: false });
    act(() => void vi.advanceTimersByTime(5 * BATCH_MS));
    expect(heard()).toEqual(['New message from bob@desktop: Bob from his machine.']);
  });
});

describe('task moves and "Needs you" arrivals', () => {
  it('a task an agent moves on the open board is said once, even when the news comes twice', async () => {
    const { api } = renderApp({ state: demoState(), route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }, 'board') });
    await screen.findByRole('article', { name: /task_12/ });
    const task = api.state.tasks[DEMO_REPO_ROOM].find((t) => t.number === 12)!;
    task.status = 'in_review';
    act(() => {
      api.emit({ type: 'task.changed', place: 'local', roomId: DEMO_REPO_ROOM, task });
      api.emit({ type: 'task.changed', place: 'local', roomId: DEMO_REPO_ROOM, task });
    });
    await waitFor(() => expect(announcements()).toContain('task_12 is now In review.'));
    await new Promise((resolve) => setTimeout(resolve, 100)); // a bounded moment for a repeat that must not come
    expect(announcements().filter((line) => line === 'task_12 is now In review.')).toHaveLength(1);
  });

  it('a new "Needs you" item is said once, wherever the person is; the queue already there is not', async () => {
    const { api } = renderApp({ state: demoState(), route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }) });
    await screen.findByText(/Pushing a fix/);
    await waitFor(() => expect(screen.getByRole('button', { name: /Needs you/ })).toBeTruthy());
    expect(announcements().some((line) => line.startsWith('Needs you'))).toBe(false);
    api.state.needsYou.push(needsYouItem(DEMO_REPO_ROOM, 'github.com/acme/checkout-service', 30, 'Ship on Friday?', { from: 'Atlas', reason: 'approval' }));
    act(() => api.emit({ type: 'needsYou.changed', place: 'local', roomId: DEMO_REPO_ROOM }));
    await waitFor(() => expect(announcements()).toContain('Needs you: Approval from Atlas: Ship on Friday?'));
    act(() => api.emit({ type: 'needsYou.changed', place: 'local', roomId: DEMO_REPO_ROOM }));
    await new Promise((resolve) => setTimeout(resolve, 100)); // a bounded moment for a repeat that must not come
    expect(announcements().filter((line) => line.startsWith('Needs you'))).toHaveLength(1);
  });
});

describe('the timeline for screen readers', () => {
  it('is a list whose messages are named by author and the time they show', async () => {
    renderApp({ state: demoState(), route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }) });
    const log = await screen.findByRole('region', { name: 'Messages' });
    await within(log).findByText(/Pushing a fix/);
    // The outermost list: messages may hold Markdown lists of their own.
    const list = within(log).getAllByRole('list')[0];
    const items = [...list.children];
    for (const item of items) expect(item.getAttribute('role')).toBe('listitem');
    expect(items.length).toBeGreaterThan(3);
    for (const item of items) {
      const entry = item.querySelector('[data-number]')!;
      // The time in the one format the message shows (relative within a day, then date and time).
      const shown = entry.querySelector('time')!.textContent;
      expect(shown).toMatch(/^(just now|\d+ min ago|\d+ h ago|.*\d\d:\d\d)$/);
      expect(entry.getAttribute('aria-label')).toMatch(new RegExp(`^[^,]+, ${shown!.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`));
    }
  });
});
