// @vitest-environment happy-dom
// "Needs you": one queue across rooms, answered or dismissed in place.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { appErrors } from '../../src/main/domain/errors';
import { announcements, renderApp, never, toasts } from './support/renderApp';
import { DEMO_REPO_ROOM, demoState } from './support/demoSeed';
import { emptyState } from './support/fakeApi';

afterEach(cleanup);

const open = (state = demoState(), overrides = {}) => renderApp({ state, route: { view: 'needsYou' }, overrides });

describe('Needs you', () => {
  it('lists requests, tasks in review and approvals across rooms, newest first', async () => {
    open();
    const cards = await screen.findAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual([
      'Decision from MapleRidge: Should dead-letter events show in the admin UI?',
      'Task in review from Cedar: Fix flaky CartTotals test',
      'Approval from Juniper: May I delete the old staging database snapshot?',
    ]);
    expect(within(cards[0]).getByText('Logs only for May; admin page in June.')).toBeTruthy();
    expect(within(cards[0]).getByText('task_13')).toBeTruthy();
  });

  it('an answer is sent in place as a reply that mentions the agent, and the item leaves the queue', async () => {
    const { api } = open();
    const card = (await screen.findAllByRole('article'))[0];
    await userEvent.type(within(card).getByRole('textbox', { name: 'Answer MapleRidge' }), 'Logs only for now.');
    await userEvent.click(within(card).getByRole('button', { name: 'Send answer' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    expect(api.calls.find((c) => c.method === 'needsYou.answer')?.input).toEqual({ item: { kind: 'request', roomId: DEMO_REPO_ROOM, number: 4, place: 'local' }, text: 'Logs only for now.' });
    const reply = api.state.messages[DEMO_REPO_ROOM].at(-1)!;
    expect(reply.text).toBe('@MapleRidge Logs only for now.');
    expect(reply.threadRootNumber).toBe(13);
    expect(await within(toasts()).findByText('Answer sent to MapleRidge.')).toBeTruthy();
    expect(announcements()).toContain('Answer sent to MapleRidge.');
  });

  it('Ctrl+Enter in the answer box sends it', async () => {
    const { api } = open();
    const card = (await screen.findAllByRole('article'))[2];
    await userEvent.type(within(card).getByRole('textbox'), 'Yes, delete it.{Control>}{Enter}{/Control}');
    await waitFor(() => expect(api.calls.some((c) => c.method === 'needsYou.answer')).toBe(true));
  });

  it('after an answer sent from the keyboard, focus moves on to the next item, and to the heading when none is left', async () => {
    open();
    const first = (await screen.findAllByRole('article'))[0];
    await userEvent.type(within(first).getByRole('textbox'), 'Logs only.{Control>}{Enter}{/Control}');
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    const [next] = screen.getAllByRole('article');
    await waitFor(() => expect(document.activeElement).toBe(within(next).getByRole('textbox')));
    for (const text of ['Merged, thanks.', 'Yes.']) {
      const box = document.activeElement as HTMLElement;
      await userEvent.type(box, `${text}{Control>}{Enter}{/Control}`);
      await waitFor(() => expect(box.isConnected).toBe(false));
    }
    await waitFor(() => expect(document.activeElement).toBe(screen.getByRole('heading', { name: 'Needs you', level: 1 })));
  });

  it('Dismiss takes an item off the queue without answering', async () => {
    const { api } = open();
    const card = (await screen.findAllByRole('article'))[1];
    await userEvent.click(within(card).getByRole('button', { name: 'Dismiss' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(2));
    expect(api.calls.some((c) => c.method === 'needsYou.answer')).toBe(false);
  });

  it('a failed answer keeps the text and says why', async () => {
    open(demoState(), { 'needsYou.answer': () => { throw appErrors.notFound('Request'); } });
    const card = (await screen.findAllByRole('article'))[0];
    await userEvent.type(within(card).getByRole('textbox'), 'Logs only.');
    await userEvent.click(within(card).getByRole('button', { name: 'Send answer' }));
    expect(await within(card).findByText('Request not found.')).toBeTruthy();
    expect((within(card).getByRole('textbox') as HTMLTextAreaElement).value).toBe('Logs only.');
  });

  it('Open task goes to the task on its board', async () => {
    open();
    const card = (await screen.findAllByRole('article'))[1];
    await userEvent.click(within(card).getByRole('button', { name: 'Open task' }));
    expect(await screen.findByRole('complementary', { name: /task_14/ })).toBeTruthy();
  });

  it('empty, loading and error states', async () => {
    open(emptyState());
    expect(await screen.findByRole('heading', { name: 'Nothing needs you' })).toBeTruthy();
    cleanup();
    open(demoState(), { 'needsYou.list': never });
    expect(await screen.findByText('Loading…')).toBeTruthy();
    cleanup();
    open(demoState(), { 'needsYou.list': () => { throw appErrors.invalidInput('Queue unavailable.'); } });
    expect(await screen.findByText('Queue unavailable.')).toBeTruthy();
  });

  it('a new item arriving while the page is open shows up', async () => {
    const state = emptyState();
    const { api } = open(state);
    await screen.findByRole('heading', { name: 'Nothing needs you' });
    const seeded = demoState();
    state.rooms = seeded.rooms;
    state.needsYou = [seeded.needsYou[0]];
    api.emit({ type: 'needsYou.changed', place: 'local', roomId: DEMO_REPO_ROOM });
    expect(await screen.findByRole('article', { name: /Should dead-letter events/ })).toBeTruthy();
  });
});
