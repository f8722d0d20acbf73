// Automations started by events, in a whole app driven as the UI drives it, with agents on
// real MCP connections: an agent's question answered in Needs you; a task blocked; a pull request linked to a
// task (the fake GitHub's) whose check starts failing, or whose review is requested — read only
// while signed in (signed out, nothing is asked of GitHub and the card says why), and only a
// change starts a run (a state first seen, or seen again, starts none).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { GITHUB_CHECK_MS } from '../../../src/main/automations/githubEvents';
import { ManualClock } from '../../support/manualClock';
import { rawDbOf } from '../../support/storage';
import { setUpApi, type ApiHarness } from '../api/harness';

afterEach(() => {
  vi.useRealTimers();
});

const ROOM = 'lab';

async function mentions(h: ApiHarness, handle: string): Promise<string[]> {
  return (await h.call('messages.timeline', { roomId: ROOM })).messages.map((m) => m.text).filter((t) => t.startsWith(`@${handle} `));
}

/**
 * Signs the person in through the device flow (the fake GitHub approves at once). The auth
 * service waits out GitHub's poll interval by the Date it was built with: the test made that
 * Date one it moves (a minute back, so real time goes on from past it afterwards).
 */
async function signIn(h: ApiHarness): Promise<void> {
  const flow = await h.call('auth.startDeviceFlow', {});
  h.github.approve();
  vi.setSystemTime(Date.now() + flow.interval * 1000);
  await h.call('auth.poll', {});
  vi.useRealTimers();
  expect((await h.call('auth.status', {})).signedIn).toBe(true);
}

describe('room events', () => {
  it("an agent's question answered in Needs you starts the automation, once", async () => {
    const h = await setUpApi();
    await h.room(ROOM);
    const juniper = await h.agent(ROOM, 'Juniper');
    const { automationId } = await h.call('automations.add', {
      name: 'Act on answers', roomId: ROOM, target: { kind: 'mention', handle: 'Juniper' }, instructions: 'Carry on with the answer.', trigger: { type: 'decision_answered' },
    });
    await juniper.tool('request_human_input', { client_id: 'db-choice-1', title: 'Which database?', body: 'SQLite or PostgreSQL?', category: 'decision' });
    await h.call('needsYou.answer', { item: { kind: 'request', roomId: ROOM, number: 1 }, text: 'PostgreSQL' });
    await h.waitFor(() => h.events.some((e) => e.type === 'automation.changed' && e.automationId === automationId), 'the run');
    await expect.poll(async () => (await h.call('automations.runs', { automationId })).length).toBe(1);
    const [run] = await h.call('automations.runs', { automationId });
    const me = (await h.app.auth.ownerIdentity()).ownerLabel;
    expect(run).toMatchObject({ cause: 'event', status: 'done', causeText: `req_1 "Which database?" was answered by ${me}: "PostgreSQL"` });
    expect(await mentions(h, 'Juniper')).toEqual([`@Juniper Carry on with the answer.\n\n(Automation "Act on answers": ${run.causeText}.)`]);
    // Later Needs-you changes (a new question) do not start it again for the same answer.
    await juniper.tool('request_human_input', { client_id: 'db-choice-2', title: 'Which port?', body: '5432?', category: 'question' });
    await h.call('messages.send', { roomId: ROOM, text: 'Noted.' });
    expect(await h.call('automations.runs', { automationId })).toHaveLength(1);
  });

  it('a task blocked starts the automation each time it is blocked; other moves start nothing', async () => {
    const h = await setUpApi();
    await h.room(ROOM);
    const juniper = await h.agent(ROOM, 'Juniper');
    const { automationId } = await h.call('automations.add', {
      name: 'Unblock', roomId: ROOM, target: { kind: 'mention', handle: 'Cedar' }, instructions: 'Help unblock it.', trigger: { type: 'task_blocked' },
    });
    await h.call('tasks.create', { roomId: ROOM, title: 'Fix login' });
    await juniper.tool('claim_task', { task_id: 'task_1' });
    await juniper.tool('update_task', { task_id: 'task_1', status: 'in_progress' });
    await juniper.tool('update_task', { task_id: 'task_1', status: 'blocked', reason: 'Waiting for the API key.' });
    await expect.poll(async () => (await mentions(h, 'Cedar')).length, { timeout: 5_000 }).toBe(1);
    const [run] = await h.call('automations.runs', { automationId });
    expect(run).toMatchObject({ cause: 'event', status: 'done', causeText: 'task_1 "Fix login" entered Blocked (moved by Juniper)' });
    expect(await mentions(h, 'Cedar')).toEqual([`@Cedar Help unblock it.\n\n(Automation "Unblock": ${run.causeText}.)`]);
    // Unblocked, then sent to review: no run; blocked again from review: a second one.
    await juniper.tool('update_task', { task_id: 'task_1', status: 'in_progress' });
    await juniper.tool('update_task', { task_id: 'task_1', status: 'in_review' });
    await juniper.tool('update_task', { task_id: 'task_1', status: 'blocked', reason: 'The reviewer is away.' });
    await expect.poll(async () => (await mentions(h, 'Cedar')).length, { timeout: 5_000 }).toBe(2);
    expect((await h.call('automations.runs', { automationId })).map((r) => r.causeText)).toEqual([
      'task_1 "Fix login" entered Blocked (moved by Juniper)',
      'task_1 "Fix login" entered Blocked (moved by Juniper)',
    ]);
  });
});

describe('a pull request linked to a task', () => {
  it('starts runs when its check fails or a review is requested: only while signed in, only on a change', async () => {
    const clock = new ManualClock(Date.now());
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() - 60_000 });
    const h = await setUpApi({ clock });
    await h.room(ROOM);
    const juniper = await h.agent(ROOM, 'Juniper');
    h.github.addRepo('acme/app', { visibility: 'public' });
    const pr = { state: 'open' as const, headSha: 'abc1234', checkRuns: [{ status: 'completed' as const, conclusion: 'success' }], requestedReviewers: [] as string[] };
    h.github.addPullRequest('acme/app', 7, pr);
    const url = `${h.github.webUrl}/acme/app/pull/7`;
    await h.call('tasks.create', { roomId: ROOM, title: 'Fix login' });
    await juniper.tool('claim_task', { task_id: 'task_1' });
    await juniper.tool('update_task', { task_id: 'task_1', status: 'in_progress', pr_url: url });
    const ci = await h.call('automations.add', { name: 'Fix CI', roomId: ROOM, target: { kind: 'mention', handle: 'Juniper' }, instructions: 'Look at the failing check.', trigger: { type: 'pr_check_failed' } });
    const review = await h.call('automations.add', { name: 'Review', roomId: ROOM, target: { kind: 'mention', handle: 'Cedar' }, instructions: 'Review it.', trigger: { type: 'pr_review_requested' } });
    expect(ci.notice).toMatch(/^Not signed in to GitHub: it does nothing until you sign in/);

    // Signed out: a failing check and a review request start nothing, whatever time passes
    // (the board may still show a public pull request's state; automations read none).
    const failing = { ...pr, checkRuns: [{ status: 'completed' as const, conclusion: 'failure' }], requestedReviewers: ['octocat'] };
    h.github.addPullRequest('acme/app', 7, failing);
    clock.advance(2 * GITHUB_CHECK_MS);
    await new Promise((r) => setTimeout(r, 200)); // bounded: proves no run starts
    expect((await h.call('automations.list', {})).map((a) => a.lastRun)).toEqual([null, null]);

    await signIn(h);
    expect((await h.call('automations.list', {})).map((a) => a.notice)).toEqual([null, null]);
    // The first look only takes note of the state it finds (failing, octocat asked).
    // What each automation noted of the pull request at its last look (its row; nothing else shows it).
    const noted = () => rawDbOf(h.app.core.store).prepare('SELECT seen_json FROM automations ORDER BY created_at').all().map((r) => (r as { seen_json: string | null }).seen_json);
    const notedAs = (checks: string, reviews: string[]) => JSON.stringify({ [url]: { checks, reviews } });
    const pulls = () => h.github.requests.filter((r) => r.path.endsWith('/pulls/7')).length;
    clock.advance(GITHUB_CHECK_MS);
    await h.waitFor(() => noted().every((n) => n === notedAs('failure', ['octocat'])), 'the first look');
    await new Promise((r) => setTimeout(r, 200)); // bounded: proves no run follows it
    expect((await h.call('automations.list', {})).map((a) => a.lastRun)).toEqual([null, null]);

    // Passing again, then failing, with one more reviewer asked: each automation runs once.
    h.github.addPullRequest('acme/app', 7, pr);
    clock.advance(GITHUB_CHECK_MS);
    await h.waitFor(() => noted().every((n) => n === notedAs('success', [])), 'a look at the passing check');
    h.github.addPullRequest('acme/app', 7, { ...failing, requestedReviewers: ['octocat', 'hubot'] });
    clock.advance(GITHUB_CHECK_MS);
    await expect.poll(async () => (await mentions(h, 'Juniper')).length, { timeout: 5_000 }).toBe(1);
    await expect.poll(async () => (await mentions(h, 'Cedar')).length, { timeout: 5_000 }).toBe(1);
    expect((await h.call('automations.runs', { automationId: ci.automationId }))[0].causeText).toBe(`a check failed on task_1's pull request ${url}`);
    expect((await h.call('automations.runs', { automationId: review.automationId }))[0].causeText).toBe(`a review was requested from octocat, hubot on task_1's pull request ${url}`);

    // Still failing, the same reviewers: no new run.
    const looks = pulls();
    clock.advance(GITHUB_CHECK_MS);
    await h.waitFor(() => pulls() > looks, 'another look');
    await new Promise((r) => setTimeout(r, 200)); // bounded: proves no run follows the look
    expect(await h.call('automations.runs', { automationId: ci.automationId })).toHaveLength(1);
    expect(await h.call('automations.runs', { automationId: review.automationId })).toHaveLength(1);
  });
});
