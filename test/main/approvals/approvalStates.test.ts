// How an answer travels (issue 37), at the approvals service over a real SQLite file: waiting →
// answered (by whom, from which screen) → delivered → the agent went on; an answer that cannot
// reach the agent reopens the request and says why; two screens answering: the first wins and
// the second is told who answered from where; a session that ends after delivery says so.
import { describe, expect, it } from 'vitest';
import { Approvals, type ApprovalAnswer, type ApprovalRequest } from '../../../src/main/approvals/approvals';
import { phaseOf, phaseText } from '../../../src/main/approvals/approvalState';
import { getApprovalRow } from '../../../src/main/store/approvalQueries';
import { waitUntil } from '../../support';
import { TestStorage } from '../../support/storage';

const request = (owner: string): ApprovalRequest => ({
  owner, source: 'channel', room_id: 'lab', session_id: null, request_id: 'abcde', agent_name: 'Juniper', tool: 'Bash', description: 'npm test', input_preview: '{}',
});

async function setUp() {
  const store = new TestStorage();
  const approvals = new Approvals(store);
  await approvals.ready;
  const row = async (number: number) => (await store.read((q) => getApprovalRow(q, number)))!;
  return { store, approvals, row };
}

describe('how an approval\'s answer travels', () => {
  it('goes waiting → answered from a phone → delivered → went on, and says so at each step', async () => {
    const { approvals, row } = await setUp();
    let release!: () => void;
    const handedOver: ApprovalAnswer[] = [];
    // The agent's connection takes the answer only when the test lets it.
    await approvals.ask(request('c1'), null, (answer) => {
      handedOver.push(answer);
      return new Promise<void>((resolve) => (release = resolve));
    });
    expect(phaseOf(await row(1))).toBe('waiting');

    const decided = approvals.decide(1, 'allow_once', null, { person: 'Ada', via: 'Pixel 8' });
    await waitUntil(() => handedOver.length === 1);
    // Answered, but not yet in the agent's hands: never "allowed" as if done.
    expect(phaseOf(await row(1))).toBe('answered');
    expect(phaseText(await row(1))).toBe('Allowed once by Ada from Pixel 8. Delivering it to Juniper…');
    // A call that was already on its way before the answer arrived is not the agent going on.
    await approvals.wentOn('c1');
    expect(phaseOf(await row(1))).toBe('answered');

    release();
    expect(await decided).toEqual({ settled: true, delivered: true, message: 'Allowed Bash: Juniper got the answer.' });
    expect(phaseOf(await row(1))).toBe('delivered');
    expect(phaseText(await row(1))).toBe('Allowed once by Ada from Pixel 8. Delivered to Juniper; waiting for it to go on.');

    await approvals.wentOn('someone-else');
    expect(phaseOf(await row(1))).toBe('delivered');
    await approvals.wentOn('c1');
    expect(phaseOf(await row(1))).toBe('went_on');
    expect(phaseText(await row(1))).toBe('Allowed once by Ada from Pixel 8. Delivered; the agent went on.');
  });

  it('keeps the request open, saying why, when the answer cannot reach the agent; a new answer tries again', async () => {
    const { approvals, row } = await setUp();
    let tries = 0;
    await approvals.ask(request('c1'), null, async () => {
      if (++tries === 1) throw new Error('its session disconnected');
    });
    const first = await approvals.decide(1, 'allow_once', null, { person: 'Ada', via: 'Pixel 8' });
    expect(first).toEqual({
      settled: false,
      delivered: false,
      message: 'Allowed Bash, but it could not reach Juniper: Allowed once by Ada from Pixel 8 could not be delivered: its session disconnected. The request is still open.',
    });
    const open = await row(1);
    expect(open.status).toBe('pending');
    expect(phaseOf(open)).toBe('undelivered');
    expect((await approvals.shown()).map((r) => [r.number, r.expires_at !== null])).toEqual([[1, true]]);

    expect(await approvals.decide(1, 'deny', 'Not now.', { person: 'Ada', via: null })).toMatchObject({ settled: true, delivered: true });
    expect(phaseText(await row(1))).toBe('Denied by Ada on this computer. Delivered to Juniper; waiting for it to go on.');
  });

  it('lets the first of two screens win; the second is told who answered and from where', async () => {
    const { approvals } = await setUp();
    await approvals.ask(request('c1'), null, async () => undefined);
    const [phone, desk] = await Promise.all([
      approvals.decide(1, 'allow_once', null, { person: 'Ada', via: 'Pixel 8' }),
      approvals.decide(1, 'deny', null, { person: 'Ada', via: null }),
    ]);
    expect(phone.settled).toBe(true);
    expect(desk).toEqual({ settled: false, delivered: false, message: 'Already settled: allowed once by Ada from Pixel 8. Your answer changed nothing.' });
  });

  it('ends a delivered answer whose session closes before the agent went on, and one still waiting with its session', async () => {
    const { approvals, row } = await setUp();
    await approvals.ask(request('c1'), null, async () => undefined);
    await approvals.ask(request('c2'), null, async () => undefined);
    await approvals.decide(1, 'allow_once', null, { person: 'Ada', via: null });
    await approvals.closeOwner('c1', 'The session disconnected.');
    await approvals.closeOwner('c2', 'The session disconnected.');
    expect(phaseText(await row(1))).toBe('Allowed once by Ada on this computer. Delivered, then the session ended before the agent went on.');
    expect(phaseText(await row(2))).toBe('The session ended: The session disconnected.');
    // Both stay in view until cleared; only one that is over can be cleared.
    expect((await approvals.shown()).map((r) => r.number)).toEqual([2, 1]);
    expect(await approvals.clear(1)).toBe(true);
    expect((await approvals.shown()).map((r) => r.number)).toEqual([2]);
  });

  it('does not clear a request that still waits', async () => {
    const { approvals } = await setUp();
    await approvals.ask(request('c1'), null, async () => undefined);
    expect(await approvals.clear(1)).toBe(false);
    expect((await approvals.shown()).map((r) => r.status)).toEqual(['pending']);
  });
});
