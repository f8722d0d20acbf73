// Why there was no reply (issue 34 item 3) for Codex, Gemini CLI, OpenCode and GitHub Copilot CLI:
// the REAL CLIs (codex 0.171.0, gemini-cli 0.61.0, opencode-ai 1.18.33, @github/copilot 1.0.102)
// against a fake model whose answer is cut at the output limit or empty. Where the CLI's output says
// so, the receipts do; where it cannot tell (it prints nothing of it), the test names what it printed
// and asserts today's reason, so a CLI update that changes it is noticed. Claude Code: noReply.test.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupSpawned } from '../../support';
import { cutAtOutputLimit, sayNothingAtAll, type ModelStep } from '../../support/fakeModels';
import { startManagedApp, type ManagedApp } from './managedApp';

let app: ManagedApp | null = null;
afterEach(async () => {
  await app?.close();
  app = null;
  await cleanupSpawned();
});

const ROOM = 'quiet-room';
/** OpenCode starts slowly on this shared machine; Gemini CLI waits between its tries. */
const SLOW = { timeout: 400_000 };
const TURN_MS = 240_000;
const CUT_TEXT = 'The cause is that the';

interface Case {
  /** What the fake model answers, and exactly what the CLI printed of it. */
  readonly name: string;
  readonly steps: ModelStep[];
  /** The turn's status, its reason in the receipts, and the CLI's own words on the card's activity (if any). */
  readonly status: 'done' | 'failed';
  readonly why: string;
  readonly said?: string;
  /** The model requests the CLI made for it (its silent tries). */
  readonly requests: number;
}

const LIMIT = 'read it, but its answer hit the output limit';
const EMPTY = 'read it, but its answer was empty';
const PASSED = 'read it and passed (said nothing)';

const CASES = {
  codex: [
    {
      name: 'cut at the output limit: it fails the turn, "Incomplete response returned, reason: max_output_tokens" (turn.failed)',
      steps: cutAtOutputLimit(CUT_TEXT), status: 'failed', why: LIMIT, said: 'Incomplete response returned, reason: max_output_tokens', requests: 1,
    },
    { name: 'empty: an empty agent_message, then turn.completed', steps: sayNothingAtAll(), status: 'done', why: EMPTY, requests: 1 },
  ],
  gemini: [
    {
      name: 'cut at the output limit after some text: it prints the text and a "success" result, nothing of the cut, so it reads as passed',
      steps: cutAtOutputLimit(CUT_TEXT), status: 'done', why: PASSED, said: CUT_TEXT, requests: 1,
    },
    {
      name: 'cut at the output limit before any text: three more tries, then error "Model response was truncated because it exceeded the token limit…" and an "error" result',
      steps: cutAtOutputLimit(''), status: 'failed', why: LIMIT, said: 'Model response was truncated because it exceeded the token limit. Try using /compress to free up context space.', requests: 4,
    },
    {
      name: 'empty: three more tries, then error "The model returned an empty response with no text or thoughts…" and an "error" result',
      steps: sayNothingAtAll(), status: 'failed', why: EMPTY, said: 'The model returned an empty response with no text or thoughts. This may be a transient API issue; please try again.', requests: 4,
    },
  ],
  opencode: [
    { name: 'cut at the output limit: the text, then step_finish with reason "length"', steps: cutAtOutputLimit(CUT_TEXT), status: 'done', why: LIMIT, said: CUT_TEXT, requests: 1 },
    { name: 'empty: an empty text part, then step_finish with reason "stop"', steps: sayNothingAtAll(), status: 'done', why: EMPTY, requests: 1 },
  ],
  copilot: [
    {
      name: 'cut at the output limit: two more model calls without a word in its output, then the cut text as its message and exit code 0, so it reads as passed',
      steps: cutAtOutputLimit(CUT_TEXT), status: 'done', why: PASSED, said: CUT_TEXT, requests: 3,
    },
    {
      name: 'empty: session.error "No response was returned. Send your message again to retry." and exit code 1',
      steps: sayNothingAtAll(), status: 'failed', why: EMPTY, said: 'No response was returned. Send your message again to retry.', requests: 1,
    },
  ],
} as const satisfies Record<string, readonly Case[]>;

describe.each(Object.keys(CASES) as Array<keyof typeof CASES>)('%s: an answer that came to nothing (real CLI, fake model)', (provider) => {
  it.each<Case>(CASES[provider])('$name', SLOW, async (c) => {
    app = await startManagedApp({ provider });
    await app.room(ROOM);
    const birch = await app.call('agents.add', { provider, folder: app.folder, roomId: ROOM, name: 'Birch', permissions: 'read_only' });
    app.model.script.push('Birch', ...c.steps);
    const asked = await app.call('messages.send', { roomId: ROOM, text: '@Birch explain the whole cache design' });
    const turn = await app.turnEnded(birch.agentId, 1, TURN_MS);
    expect(turn.status, JSON.stringify(turn)).toBe(c.status);
    const entries = turn.entries.map((e) => e.text);
    if (c.said) expect(entries).toContain(c.said);
    expect(entries).toContain(`No reply in the room: Birch ${c.why}.`);
    expect((await app.call('delivery.receipts', { roomId: ROOM, numbers: [asked.number] })).receipts[0].noReply).toEqual([{ name: 'Birch', why: c.why }]);
    expect(app.model.script.requestsFor('Birch')).toHaveLength(c.requests);
  });
});
