import { describe, expect, it } from 'vitest';
import { countNeedsYou, dismissNeedsYouItem, listNeedsYou } from '../../../../src/main/domain/knowledge/needsYou';
import { answerRequest, dismissRequest, getHumanRequests, requestHumanInput } from '../../../../src/main/domain/knowledge/requests';
import { DomainError } from '../../../../src/main/domain/errors';
import { raiseAlert } from '../../../../src/main/domain/knowledge/alerts';
import type { Queryable, SqlValue } from '../../../../src/main/store/port';
import { ada, addRoom, juniper, makeStore, postAgentMessage, postPersonMessage, putTask, snapshot } from './fixtures';

// The person is "Ada Lovelace", GitHub login "ada".
const personHandles = ['Ada Lovelace', 'ada'];
const ask = (clientId: string, title: string) => ({ clientId, title, body: 'Please decide.', category: 'question' });

async function setup() {
  const ctx = makeStore();
  await addRoom(ctx.store, 'R');
  await addRoom(ctx.store, 'S');
  return ctx;
}
type Ctx = Awaited<ReturnType<typeof setup>>;
const queue = async (ctx: Ctx, limit?: number) => (await listNeedsYou(ctx.q, { personHandles, limit })).map((i) => `${i.kind} ${i.roomId} ${i.id}`);

describe('the "Needs you" queue', () => {
  it('holds open requests, tasks in review, blocked tasks and mentions across rooms, newest first', async () => {
    const ctx = await setup();
    await putTask(ctx.store, 'R', 1, 'in_review', 'Fix login');
    await ctx.store.write((tx) => requestHumanInput(tx, 'S', juniper, ask('ask-0000001', 'Which database?')));
    const mention = await postAgentMessage(ctx.store, 'R', '@ada can you look at this?');
    await putTask(ctx.store, 'S', 4, 'blocked', 'Deploy');
    expect(await queue(ctx)).toEqual(['blocked S task_4', `mention R msg_${mention}`, 'request S req_1', 'review R task_1']);
    const [blocked, m, request, review] = await listNeedsYou(ctx.q, { personHandles });
    expect(blocked).toMatchObject({ kind: 'blocked', roomName: 'Room S', title: 'Deploy' });
    expect(m).toMatchObject({ sender: juniper.label, text: '@ada can you look at this?', threadRootId: `msg_${mention}` });
    expect(request).toMatchObject({ title: 'Which database?', category: 'question', requestedBy: juniper.label });
    expect(review).toMatchObject({ title: 'Fix login' });
    expect(await countNeedsYou(ctx.q, { personHandles })).toBe(4);
  });

  it('leaves out answered and dismissed requests, other task statuses and archived rooms', async () => {
    const ctx = await setup();
    await addRoom(ctx.store, 'OLD');
    await ctx.store.write((tx) => requestHumanInput(tx, 'R', juniper, ask('ask-0000001', 'One')));
    await ctx.store.write((tx) => requestHumanInput(tx, 'R', juniper, ask('ask-0000002', 'Two')));
    await ctx.store.write((tx) => requestHumanInput(tx, 'OLD', juniper, ask('ask-0000003', 'Three')));
    await ctx.store.write((tx) => answerRequest(tx, ada, 'R', 1, 'yes'));
    await ctx.store.write((tx) => dismissRequest(tx, ada, 'R', 2));
    for (const [n, status] of ['proposed', 'accepted', 'assigned', 'in_progress', 'merged', 'done', 'cancelled'].entries()) {
      await putTask(ctx.store, 'R', n + 1, status);
    }
    await putTask(ctx.store, 'OLD', 1, 'blocked');
    await postAgentMessage(ctx.store, 'OLD', '@ada archived mention');
    await ctx.store.write((tx) => tx.run("UPDATE rooms SET archived_at = ? WHERE room_id = 'OLD'", tx.now));
    expect(await queue(ctx)).toEqual([]);
    expect(await countNeedsYou(ctx.q, { personHandles })).toBe(0);
  });

  it('counts a mention only when it @names one of the person\'s handles outside code', async () => {
    const ctx = await setup();
    const hits = [
      await postAgentMessage(ctx.store, 'R', 'thanks @AdaLovelace!'),
      await postAgentMessage(ctx.store, 'R', 'cc @ADA, please'),
      await postAgentMessage(ctx.store, 'S', '(@ada) see above'),
    ];
    await postAgentMessage(ctx.store, 'R', 'Ada wrote the spec'); // no @
    await postAgentMessage(ctx.store, 'R', 'mail ada@example.com'); // an address
    await postAgentMessage(ctx.store, 'R', 'run `@ada --help`'); // inline code
    await postAgentMessage(ctx.store, 'R', '```\n@ada in a block\n```'); // fenced block
    await postAgentMessage(ctx.store, 'R', '@adam and @adalove'); // other names
    await postPersonMessage(ctx.store, 'R', 'note to self @ada'); // the person's own message
    expect(await queue(ctx)).toEqual([`mention S msg_${hits[2]}`, `mention R msg_${hits[1]}`, `mention R msg_${hits[0]}`]);
  });

  it('a mention leaves once the person replies in its thread, and a thread reply mention points at its root', async () => {
    const ctx = await setup();
    const root = await postAgentMessage(ctx.store, 'R', 'plan for today');
    await postAgentMessage(ctx.store, 'R', '@ada ok to merge?', { threadRootNumber: root });
    const topLevel = await postAgentMessage(ctx.store, 'R', '@ada another question');
    expect((await listNeedsYou(ctx.q, { personHandles })).map((i) => i.kind === 'mention' && i.threadRootId)).toEqual([
      `msg_${topLevel}`,
      `msg_${root}`,
    ]);
    await postPersonMessage(ctx.store, 'R', 'yes, merge', { threadRootNumber: root });
    expect(await queue(ctx)).toEqual([`mention R msg_${topLevel}`]);
    await postPersonMessage(ctx.store, 'R', 'answering', { threadRootNumber: topLevel });
    expect(await queue(ctx)).toEqual([]);
  });

  it('dismissed mentions and tasks leave the queue; a task comes back when it changes again', async () => {
    const ctx = await setup();
    await putTask(ctx.store, 'R', 1, 'in_review');
    await putTask(ctx.store, 'R', 2, 'blocked');
    const mention = await postAgentMessage(ctx.store, 'R', '@ada hi');
    await ctx.store.write((tx) => dismissNeedsYouItem(tx, ada, { kind: 'mention', roomId: 'R', id: `msg_${mention}` }));
    await ctx.store.write((tx) => dismissNeedsYouItem(tx, ada, { kind: 'review', roomId: 'R', id: 'task_1' }));
    await ctx.store.write((tx) => dismissNeedsYouItem(tx, ada, { kind: 'blocked', roomId: 'R', id: 'task_2' }));
    expect(await queue(ctx)).toEqual([]);
    expect(ctx.events.filter((e) => e.type === 'needsYou.changed')).toHaveLength(3);
    await putTask(ctx.store, 'R', 1, 'in_progress');
    await putTask(ctx.store, 'R', 1, 'in_review');
    expect(await queue(ctx)).toEqual(['review R task_1']);
  });

  it('dismissing a request item dismisses the request itself', async () => {
    const ctx = await setup();
    await ctx.store.write((tx) => requestHumanInput(tx, 'R', juniper, ask('ask-0000001', 'One')));
    await ctx.store.write((tx) => dismissNeedsYouItem(tx, ada, { kind: 'request', roomId: 'R', id: 'req_1' }));
    expect((await getHumanRequests(ctx.q, 'R'))[0].status).toBe('dismissed');
    expect(await queue(ctx)).toEqual([]);
  });

  it('refuses to dismiss an item that does not exist, changing nothing', async () => {
    const ctx = await setup();
    const before = snapshot(ctx.store, 'needs_you_dismissals', 'human_requests');
    for (const [item, phrase] of [
      [{ kind: 'mention', roomId: 'R', id: 'msg_9' }, 'Message not found.'],
      [{ kind: 'review', roomId: 'R', id: 'task_9' }, 'Task not found.'],
      [{ kind: 'request', roomId: 'R', id: 'req_9' }, 'Request not found.'],
      [{ kind: 'blocked', roomId: 'NOPE', id: 'task_1' }, 'Room not found.'],
    ] as const) {
      const error = await ctx.store.write((tx) => dismissNeedsYouItem(tx, ada, item)).catch((e: unknown) => e);
      expect((error as DomainError).message).toBe(phrase);
    }
    expect(snapshot(ctx.store, 'needs_you_dismissals', 'human_requests')).toEqual(before);
  });

  it('lists two rooms\' items of one moment and one number by room, whatever order they were written in', async () => {
    // Each room's first request, blocked task and alert in the same millisecond: time and number
    // tie, so without a last key the order was the database's (on PostgreSQL, heap order, which
    // an update or a vacuum changes). Room S is made first and the items are written R then S:
    // SQLite's scan of rooms and its walk of the requests' index then met S first.
    const ctx = makeStore({ tickMs: 0 });
    const { store } = ctx;
    await addRoom(store, 'S');
    await addRoom(store, 'R');
    for (const room of ['R', 'S']) {
      await store.write((tx) => requestHumanInput(tx, room, juniper, ask(`ask-000000${room}`, 'Which database?')));
      await putTask(store, room, 1, 'blocked');
      await store.write((tx) => raiseAlert(tx, { roomId: room, kind: 'loop', subject: 'a loop', title: 'Agents talk in a loop', body: 'b' }));
    }
    expect(await queue(ctx)).toEqual(['request R req_1', 'request S req_1', 'blocked R task_1', 'blocked S task_1', 'alert R alert_1', 'alert S alert_1']);
  });

  it('returns at most `limit` items, the newest; limit must be 1–200', async () => {
    const ctx = await setup();
    for (let n = 1; n <= 3; n++) await putTask(ctx.store, 'R', n, 'blocked');
    expect(await queue(ctx, 1)).toEqual(['blocked R task_3']);
    expect(await queue(ctx, 2)).toEqual(['blocked R task_3', 'blocked R task_2']);
    expect(await queue(ctx, 200)).toHaveLength(3);
    for (const limit of [0, 201, 1.5]) {
      await expect(listNeedsYou(ctx.q, { personHandles, limit })).rejects.toThrow('limit must be an integer from 1 to 200.');
    }
  });

  it('the badge counts up to 200 items', async () => {
    const ctx = await setup();
    await ctx.store.write(async (tx) => {
      for (let n = 1; n <= 201; n++) {
        await tx.run(
          `INSERT INTO tasks (room_id, number, status, title, created_by, created_at, updated_at) VALUES ('R', ?, 'blocked', 't', 'x', ?, ?)`,
          n, tx.now, tx.now,
        );
      }
    });
    expect(await countNeedsYou(ctx.q, { personHandles })).toBe(200);
  });

  it('walks indexes on this computer: open requests by status and time, each live room\'s waiting tasks by status', async () => {
    const ctx = await setup();
    await putTask(ctx.store, 'R', 1, 'in_review');
    const seen: string[] = [];
    const recording: Queryable = {
      dialect: ctx.q.dialect,
      get: <T>(sql: string, ...params: SqlValue[]) => (seen.push(sql), ctx.q.get<T>(sql, ...params)),
      all: <T>(sql: string, ...params: SqlValue[]) => (seen.push(sql), ctx.q.all<T>(sql, ...params)),
      run: (sql: string, ...params: SqlValue[]) => (seen.push(sql), ctx.q.run(sql, ...params)),
    };
    await listNeedsYou(recording, { personHandles });
    const plan = (sql: string) =>
      (ctx.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...(sql.match(/\?/g) ?? []).map(() => '1')) as { detail: string }[]).map((r) => r.detail).join(' | ');
    const [requests, tasks] = seen.map(plan);
    expect(requests).toMatch(/SEARCH h USING INDEX human_requests_queue/);
    expect(tasks).toMatch(/SCAN r.*SEARCH t USING INDEX tasks_board \(room_id=\? AND status=\?\)/);
    expect(tasks).not.toMatch(/SCAN t\b/);
  });
});
