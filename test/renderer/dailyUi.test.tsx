// @vitest-environment happy-dom
// Daily use, round 2 (issue 27), the parts layout does not decide: "Needs you" speaks to you,
// joins a blocked task to the decision that unblocks it, links "Unblocks: task_3" and takes a
// suggested answer in one click; Connect gives each tool its own mark and one primary button;
// the Agents page lists a managed agent once; "Add agent" refuses a CLI that is not installed;
// search snippets show text, not Markdown; the browser host has no "Open" folder button.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { withoutMarkdownMarks } from '../../src/renderer/src/lib/markdownMarks';
import { eventRuns } from '../../src/renderer/src/views/chat/eventRuns';
import { renderApp } from './support/renderApp';
import { DEMO_REPO_ROOM, demoState } from './support/demoSeed';
import { at, needsYouItem } from './support/fakeData';
import { fakeManagedAgents, managedAgent } from './support/fakeManagedAgents';

afterEach(cleanup);

const ROOM_NAME = 'github.com/acme/checkout-service';

describe('Needs you', () => {
  const withBlockedTask = () => {
    const state = demoState();
    state.needsYou.push(
      needsYouItem(DEMO_REPO_ROOM, ROOM_NAME, 13, 'Rate-limit the refunds endpoint', { ref: { kind: 'task', roomId: DEMO_REPO_ROOM, number: 13, place: 'local' }, reason: 'task_blocked', from: 'MapleRidge', createdAt: at(40) }),
    );
    return state;
  };

  it('shows a blocked task and the decision that unblocks it as one item that speaks to you', async () => {
    renderApp({ state: withBlockedTask(), route: { view: 'needsYou' } });
    const cards = await screen.findAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual([
      'Decision from MapleRidge: Should dead-letter events show in the admin UI?',
      'Task in review from Cedar: Fix flaky CartTotals test',
      'Approval from Juniper: May I delete the old staging database snapshot?',
    ]);
    const decision = within(cards[0]);
    expect(decision.getByText('needs your decision, in')).toBeTruthy();
    expect(decision.getByText(/“Rate-limit the refunds endpoint”, which MapleRidge marked blocked/)).toBeTruthy();
    expect(within(cards[2]).getByText('needs your approval, in')).toBeTruthy();
  });

  it('opens the task from "Unblocks: task_13"', async () => {
    renderApp({ state: demoState(), route: { view: 'needsYou' } });
    const card = (await screen.findAllByRole('article'))[0];
    await userEvent.click(within(card).getByRole('button', { name: 'task_13' }));
    expect(await screen.findByRole('complementary', { name: /task_13/ })).toBeTruthy();
  });

  it('sends the suggested answer in one click', async () => {
    const { api } = renderApp({ state: demoState(), route: { view: 'needsYou' } });
    const card = (await screen.findAllByRole('article'))[0];
    await userEvent.click(within(card).getByRole('button', { name: 'Answer with this' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    expect(api.calls.find((c) => c.method === 'needsYou.answer')?.input).toEqual({
      item: { kind: 'request', roomId: DEMO_REPO_ROOM, number: 4, place: 'local' },
      text: 'Logs only for May; admin page in June.',
    });
  });
});

describe('Connect agents', () => {
  it('gives each tool its own mark and a primary button on one card only', async () => {
    renderApp({ state: demoState(), route: { view: 'connect' } });
    await screen.findByRole('heading', { name: 'Claude Code' });
    const marks = [...document.querySelectorAll('.tool-logo')].map((m) => `${m.textContent} ${m.className}`);
    expect(marks).toHaveLength(7);
    expect(new Set(marks).size).toBe(7);
    expect(new Set([...document.querySelectorAll('.tool-logo')].map((m) => m.textContent)).size).toBe(7);
    const primaries = [...document.querySelectorAll('.tool-card .btn-primary')];
    expect(primaries.map((b) => b.closest('li')?.querySelector('h3')?.textContent)).toEqual(['Codex']);
  });
});

describe('the Agents page', () => {
  it('lists a managed agent once, in its card, not again in the roster', async () => {
    const fake = fakeManagedAgents([managedAgent('Juniper', { sessionId: 'local_juniper_32' })]);
    const state = demoState();
    const juniper = state.agents.find((a) => a.name === 'Juniper')!;
    juniper.sessionId = 'local_juniper_32';
    renderApp({ state, route: { view: 'agents' }, overrides: fake.overrides });
    await screen.findByRole('list', { name: 'Managed agents' });
    await screen.findByText('Cedar');
    await waitFor(() => expect(screen.getAllByText('Juniper', { selector: '.agent-name' })).toHaveLength(1));
  });

  it('refuses "Add agent" for a CLI that is not installed', async () => {
    const { api } = renderApp({ state: demoState(), route: { view: 'agents' }, overrides: fakeManagedAgents().overrides });
    await userEvent.click(await screen.findByRole('button', { name: 'Add agent' }));
    const dialog = screen.getByRole('dialog', { name: 'Add agent' });
    await userEvent.click(await within(dialog).findByRole('radio', { name: 'Codex not installed' }));
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name in the room' }), 'Willow');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Folder it works in' }), '/home/ada/web-app');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Add agent' }));
    expect(within(dialog).getByRole('alert').textContent).toMatch(/^Codex is not installed on this computer\. .*npm install -g @openai\/codex/);
    expect(api.calls.some((c) => c.method === 'agents.add')).toBe(false);
  });
});

describe('search snippets', () => {
  it('read as text, without Markdown marks', () => {
    expect(withoutMarkdownMarks('**Ship** `v2` today — see [the notes](https://example.com/n) and _task_3_')).toBe('Ship v2 today — see the notes and task_3');
    expect(withoutMarkdownMarks('## Plan\n- one\n- two\n> quoted')).toBe('Plan one two quoted');
    // Pieces cut around a hit lose their half marks too.
    expect(withoutMarkdownMarks('the **dead-')).toBe('the dead-');
    expect(withoutMarkdownMarks('letter** table')).toBe('letter table');
  });

  it('show in the room search without Markdown', async () => {
    const state = demoState();
    const sender = state.messages[DEMO_REPO_ROOM][2].sender;
    const snippet = [{ text: 'I will take **', hit: false }, { text: 'task_12', hit: true }, { text: '** (retry logic)', hit: false }];
    renderApp({
      state,
      route: { view: 'room', roomId: DEMO_REPO_ROOM, place: 'local', tab: 'chat' },
      overrides: { 'messages.search': () => ({ hits: [{ number: 3, threadRootNumber: null, sender, createdAt: at(10), snippet }], hasMore: false }) },
    });
    await userEvent.click(await screen.findByRole('button', { name: 'Search this room' }));
    await userEvent.type(screen.getByRole('searchbox'), 'task_12');
    const hit = await screen.findByText('task_12', { selector: 'mark' });
    expect(hit.closest('.search-snippet')!.textContent).toBe('I will take task_12 (retry logic)');
  });
});

describe('Settings in the browser', () => {
  it('has no "Open" folder button that a browser cannot carry out, and says why', async () => {
    renderApp({ state: demoState(), route: { view: 'settings' } });
    await screen.findByText(/A browser cannot open folders on your computer/);
    expect(screen.queryByRole('button', { name: 'Open' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Copy path' })).toBeTruthy();
  });
});


describe('runs of room events', () => {
  it('fold from three in a row, named "board updates" only when every event is about a task', () => {
    const list = demoState().messages[DEMO_REPO_ROOM];
    const event = (n: number, text: string) => ({ ...list[1], number: n, text });
    const said = list[2];
    const messages = [event(1, 'Juniper joined the room.'), event(2, 'Cedar joined the room.'), said, event(4, 'Juniper proposed task_1: A'), event(5, 'Juniper claimed task_1.'), event(6, 'task_1 moved from accepted to in_progress by Juniper.'), said, event(8, 'Cedar joined the room.'), event(9, 'Juniper claimed task_2.'), event(10, 'Oak left.')];
    const runs = eventRuns(messages);
    expect(runs.slice(0, 3)).toEqual([undefined, undefined, undefined]);
    expect(runs[3]).toEqual({ start: 3, length: 3, noun: 'board updates' });
    expect(runs[5]).toBe(runs[3]);
    expect(runs[6]).toBeUndefined();
    expect(runs[7]).toEqual({ start: 7, length: 3, noun: 'room events' });
  });
});
