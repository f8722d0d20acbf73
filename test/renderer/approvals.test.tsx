// @vitest-environment happy-dom
// A tool use an agent waits to have allowed, as the Needs you item shows it: the command, a
// preview of the input, Allow once / Allow for this turn / Deny with a note; a late answer says
// it changed nothing and keeps the item in view.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ApprovalDecision, ApprovalInfo } from '../../src/shared/types';
import { renderApp } from './support/renderApp';
import { emptyState } from './support/fakeApi';
import { needsYouItem } from './support/fakeData';

afterEach(cleanup);

function approvalState(choices: ApprovalDecision[] = ['allow_once', 'allow_turn', 'deny'], approval: Partial<ApprovalInfo> = {}) {
  const state = emptyState();
  state.needsYou = [
    needsYouItem('managed-room', 'managed-room', 7, 'Juniper asks to use Bash', {
      ref: { kind: 'approval', roomId: 'managed-room', number: 7, place: 'local' },
      reason: 'tool_approval',
      body: 'touch notes.md',
      approval: { number: 7, source: 'managed_turn', tool: 'Bash', summary: 'touch notes.md', inputPreview: '{"command":"touch notes.md"}', inputCut: false, choices, expiresAt: null, ...approval },
    }),
  ];
  return state;
}

describe('an approval in Needs you', () => {
  it('shows the command and answers with the chosen decision, then leaves the queue', async () => {
    const { api } = renderApp({
      state: approvalState(),
      route: { view: 'needsYou' },
      overrides: { 'approvals.decide': () => ({ settled: true, message: 'Allowed Bash for this turn.' }) },
    });
    const card = await screen.findByRole('article', { name: 'Wants to use a tool from Juniper: Juniper asks to use Bash' });
    expect(within(card).getByLabelText('Bash wants to run').textContent).toBe('touch notes.md');
    expect(within(card).getAllByRole('button').map((b) => b.textContent)).toEqual(['Allow once', 'Allow for this turn', 'Deny']);
    await userEvent.click(within(card).getByRole('button', { name: 'Allow for this turn' }));
    await waitFor(() => expect(screen.queryByRole('article')).toBeNull());
    expect(api.calls.find((c) => c.method === 'approvals.decide')?.input).toEqual({ number: 7, decision: 'allow_turn' });
  });

  it('says how long is left to answer: "Counts as denied if not answered in 10 min" (issue 35)', async () => {
    const state = approvalState();
    state.needsYou[0].approval!.expiresAt = new Date(Date.now() + 10 * 60_000 + 5_000).toISOString();
    renderApp({ state, route: { view: 'needsYou' } });
    const card = await screen.findByRole('article');
    expect(within(card).getByText(/Counts as denied/).textContent).toBe('Counts as denied if not answered in 10 min.');
  });

  it('says an allowed command runs with your rights, and shows characters that print as nothing by their code', async () => {
    const summary = 'echo safe \u202E; rm -rf ~ #\u200B\u0007';
    renderApp({ state: approvalState(undefined, { summary }), route: { view: 'needsYou' } });
    const card = await screen.findByRole('article');
    expect(within(card).getByLabelText('Bash wants to run').textContent).toBe('echo safe ⟨U+202E⟩; rm -rf ~ #⟨U+200B⟩⟨U+0007⟩');
    expect(within(card).getByText("If you allow it, it runs as you, with your rights on this computer, not only in the agent's folder.")).toBeTruthy();
  });

  it('offers only Deny, and says why, for an input it cannot show whole', async () => {
    renderApp({ state: approvalState(['deny'], { inputCut: true, source: 'channel' }), route: { view: 'needsYou' } });
    const card = await screen.findByRole('article');
    expect(within(card).getAllByRole('button').map((b) => b.textContent)).toEqual(['Deny']);
    expect(within(card).getByRole('note').textContent).toBe('Claude Code sent only part of this input. Answer in its terminal to allow it; here you can only deny it.');
    expect(within(card).queryByText(/If you allow it/)).toBeNull();
  });

  it('sends the note with Deny; a late answer says it changed nothing and keeps the item', async () => {
    const { api } = renderApp({
      state: approvalState(['allow_once', 'deny']),
      route: { view: 'needsYou' },
      overrides: { 'approvals.decide': () => ({ settled: false, message: 'Already settled: allowed once. Your answer changed nothing.' }) },
    });
    const card = await screen.findByRole('article');
    // A channel request offers Allow and Deny only.
    expect(within(card).getAllByRole('button').map((b) => b.textContent)).toEqual(['Allow', 'Deny']);
    await userEvent.type(within(card).getByRole('textbox', { name: 'Note for Juniper' }), 'Use /tmp instead.');
    await userEvent.click(within(card).getByRole('button', { name: 'Deny' }));
    expect(await within(card).findByRole('alert')).toHaveProperty('textContent', 'Already settled: allowed once. Your answer changed nothing.');
    expect(api.calls.find((c) => c.method === 'approvals.decide')?.input).toEqual({ number: 7, decision: 'deny', note: 'Use /tmp instead.' });
    expect(screen.getByRole('article')).toBeTruthy();
  });
});
