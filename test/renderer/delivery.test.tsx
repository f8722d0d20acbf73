// @vitest-environment happy-dom
// Delivery in the UI (issue 14), against the API double: receipts under a message follow the
// receipt events, the room shows the loop guard's banner with its actions, and the "Needs you"
// items the app raised take actions (remind, hand to another agent, resume), not answers.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { act, cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { roomRoute } from '../../src/renderer/src/app/navigation';
import type { MessageReceipts, NeedsYouItem, RoomDelivery } from '../../src/shared/types';
import { renderApp } from './support/renderApp';
import { DEMO_REPO_ROOM, demoState } from './support/demoSeed';
import { at, needsYouItem } from './support/fakeData';
import { installLayout } from './support/layout';

beforeAll(installLayout);

afterEach(cleanup);

describe('receipts under a message', () => {
  it('say who got it, who it was pushed to and who it waits for, update on a receipt event, and show the times on focus', async () => {
    const state = demoState();
    const last = state.messages[DEMO_REPO_ROOM].filter((m) => m.threadRootNumber === null && m.kind === 'message').at(-1)!;
    let receipts: MessageReceipts = { number: last.number, seen: [{ sessionId: 's1', name: 'Juniper', at: at(10), exact: true }], pushed: [{ sessionId: 's3', name: 'Alder', at: at(12) }], waiting: [{ sessionId: 's2', name: 'Cedar', reachability: 'idle' }] };
    const { api } = renderApp({
      state,
      route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }),
      overrides: { 'delivery.receipts': ({ numbers }) => ({ receipts: numbers.includes(last.number) ? [receipts] : [] }) },
    });
    const line = await screen.findByRole('button', { name: 'Seen by Juniper · pushed to Alder · waiting for Cedar' }, { timeout: 5_000 });
    const tip = screen.getByRole('tooltip', { hidden: true });
    expect(line.getAttribute('aria-describedby')).toBe(tip.id);
    expect(tip.textContent).toContain('Alder: pushed into its session at');
    expect(tip.textContent).toContain('not read yet');
    expect(tip.textContent).toContain('Cedar: not yet. Idle, not listening: Connected but not waiting: a mention will not reach it until someone prompts it.');
    await userEvent.click(line);
    expect(line.getAttribute('aria-expanded')).toBe('true');

    receipts = { ...receipts, seen: [...receipts.seen, { sessionId: 's2', name: 'Cedar', at: at(20), exact: true }], waiting: [] };
    // Alder has not read it yet: still pushed.
    const calls = api.calls.filter((c) => c.method === 'delivery.receipts').length;
    act(() => api.emit({ type: 'message.receipts', roomId: DEMO_REPO_ROOM, place: 'local', sessionId: 's2', first: last.number, last: last.number }));
    expect(await screen.findByRole('button', { name: 'Seen by Juniper, Cedar · pushed to Alder' })).toBeTruthy();
    expect(api.calls.filter((c) => c.method === 'delivery.receipts').length).toBe(calls + 1);
  });
});

describe('a receipt waiting for a paused managed agent (issue 35)', () => {
  it('says it is paused and offers Resume, which resumes it', async () => {
    const state = demoState();
    const last = state.messages[DEMO_REPO_ROOM].filter((m) => m.threadRootNumber === null && m.kind === 'message').at(-1)!;
    const receipts: MessageReceipts = { number: last.number, seen: [], pushed: [], waiting: [{ sessionId: 's2', name: 'Cedar', reachability: 'managed_paused', pausedAgentId: 'agent_cedar' }] };
    const { api } = renderApp({
      state,
      route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }),
      overrides: { 'delivery.receipts': ({ numbers }) => ({ receipts: numbers.includes(last.number) ? [receipts] : [] }), 'agents.resume': () => ({}) as never },
    });
    const line = await screen.findByRole('button', { name: 'Not seen yet: waiting for Cedar' }, { timeout: 5_000 });
    expect(line.closest('.receipts')?.textContent).toContain('Not seen yet: waiting for Cedar · paused: Resume');
    expect(screen.getByRole('tooltip', { hidden: true }).textContent).toContain('Cedar: not yet. Paused: A managed agent that is paused');
    await userEvent.click(screen.getByRole('button', { name: 'Resume Cedar' }));
    await waitFor(() => expect(api.calls.find((c) => c.method === 'agents.resume')?.input).toEqual({ agentId: 'agent_cedar' }));
  });
});

describe('the room header and banner', () => {
  it('shows the token meter with its estimate named in the budget dialog (not the header), and the loop guard\'s pause with Resume', async () => {
    let delivery: RoomDelivery = { roomId: DEMO_REPO_ROOM, meter: { todayBytes: 30_000, totalBytes: 400_000 }, budgetTokens: 50_000, budgetReached: false, loop: { agents: ['Juniper', 'Cedar'], fromNumber: 9, alertNumber: 3 } };
    const { api } = renderApp({
      state: demoState(),
      route: roomRoute({ roomId: DEMO_REPO_ROOM, place: 'local' }),
      overrides: {
        'delivery.room': () => delivery,
        'needsYou.act': () => {
          delivery = { ...delivery, loop: null };
          return { removed: true };
        },
      },
    });
    // Not in the header (issue 27): the use is in the room's "Token budget…" dialog.
    await screen.findByText(/The loop guard paused Juniper and Cedar\./);
    expect(screen.queryByText(/tokens today/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Room actions' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Token budget…' }));
    const meter = await within(screen.getByRole('dialog')).findByText('≈ 7.5k tokens today of a 50k budget · 100k in total');
    await userEvent.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Cancel' }));
    expect(meter.getAttribute('title')).toBe('30,000 bytes today, 400,000 bytes in total. Tokens are estimated as UTF-8 bytes ÷ 4 of what LetAgents tools returned to the agents.');
    const banner = screen.getByText(/The loop guard paused Juniper and Cedar\./).closest<HTMLElement>('[role="status"]')!;
    await userEvent.click(within(banner).getByRole('button', { name: 'Resume them' }));
    expect(api.calls.find((c) => c.method === 'needsYou.act')?.input).toEqual({ item: { kind: 'alert', roomId: DEMO_REPO_ROOM, place: 'local', number: 3 }, action: 'resume' });
    act(() => api.emit({ type: 'needsYou.changed', roomId: DEMO_REPO_ROOM, place: 'local' }));
    await waitFor(() => expect(screen.queryByText(/The loop guard paused/)).toBeNull());
  });
});

describe('"Needs you" items the app raised', () => {
  const unanswered = (): NeedsYouItem =>
    needsYouItem(DEMO_REPO_ROOM, 'acme/checkout-service', 7, "Cedar hasn't picked up your message", {
      ref: { kind: 'alert', roomId: DEMO_REPO_ROOM, number: 7 },
      reason: 'unanswered',
      from: 'Cedar',
      body: 'You wrote to Cedar (msg_41), and after 2 minutes it has not reached Cedar.',
      threadRootNumber: 41,
      createdAt: at(200),
      alert: {
        actions: ['remind', 'handoff'],
        prompt: 'Read the LetAgents room acme/checkout-service and reply to msg_41.',
        agent: { sessionId: 'c', name: 'Cedar', reachability: 'offline' },
        handoffTo: [{ sessionId: 'j', name: 'Juniper', reachability: 'listening' }],
        remindedAt: null,
      },
    });

  it('take actions instead of an answer: remind, hand to another agent (with whether it listens), copy the prompt', async () => {
    const state = demoState();
    state.needsYou = [unanswered()];
    const { api } = renderApp({ state, route: { view: 'needsYou' }, overrides: { 'needsYou.act': ({ action }) => ({ removed: action === 'handoff' }) } });
    const card = await screen.findByRole('article', { name: "Not picked up from Cedar: Cedar hasn't picked up your message" });
    expect(within(card).queryByRole('textbox')).toBeNull();
    expect(within(card).getByText('Not connected: it sees nothing until it connects again.')).toBeTruthy();
    expect(within(card).getByRole('button', { name: 'Copy prompt' })).toBeTruthy();
    await userEvent.click(within(card).getByRole('button', { name: 'Remind' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'needsYou.act')).toBe(true));
    expect(api.calls.find((c) => c.method === 'needsYou.act')?.input).toEqual({ item: { kind: 'alert', roomId: DEMO_REPO_ROOM, number: 7 }, action: 'remind' });

    await userEvent.click(within(card).getByRole('button', { name: 'Hand to another agent instead of Cedar' }));
    await userEvent.click(screen.getByRole('menuitem', { name: 'Juniper — Listening' }));
    await waitFor(() => expect(screen.queryByRole('article', { name: /Cedar hasn't picked up/ })).toBeNull());
    expect(api.calls.filter((c) => c.method === 'needsYou.act').at(-1)?.input).toEqual({ item: { kind: 'alert', roomId: DEMO_REPO_ROOM, number: 7 }, action: 'handoff', toSessionId: 'j' });
  });

  it('a paused loop offers Resume and Stop but no Dismiss', async () => {
    const state = demoState();
    state.needsYou = [
      needsYouItem(DEMO_REPO_ROOM, 'acme/checkout-service', 8, 'Juniper and Cedar were paused: they kept messaging each other', {
        ref: { kind: 'alert', roomId: DEMO_REPO_ROOM, number: 8 },
        reason: 'loop',
        from: 'LetAgents',
        alert: { actions: ['resume', 'stop'], prompt: null, agent: null, handoffTo: [], remindedAt: null },
      }),
    ];
    renderApp({ state, route: { view: 'needsYou' } });
    const card = await screen.findByRole('article', { name: /^Loop paused from LetAgents/ });
    expect(within(card).getAllByRole('button').map((b) => b.textContent)).toEqual(['Resume them', 'Stop them']);
  });
});
