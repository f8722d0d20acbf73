import { describe, expect, it } from 'vitest';
import {
  classifyStatusText, presenceForTaskStatus, readReasoning, setPresence, setReasoning, touchLastSeen, type ReasoningUpdate,
} from '../../../../src/main/domain/sessions/presence';
import { getSession } from '../../../../src/main/domain/sessions/sessions';
import { makeFixture, register } from './fixtures';

describe('classifying post_status text', () => {
  it('reads blocked, waiting on and waiting for as blocked', () => {
    expect(classifyStatusText('Blocked on CI')).toBe('blocked');
    expect(classifyStatusText('waiting on Ada')).toBe('blocked');
    expect(classifyStatusText('WAITING FOR review')).toBe('blocked');
  });

  it('reads review as reviewing', () => {
    expect(classifyStatusText('Reviewing task_3')).toBe('reviewing');
    expect(classifyStatusText('in review')).toBe('reviewing');
  });

  it('reads idle, done, available, finished and standing by as idle', () => {
    for (const text of ['idle', 'Done with task_2', 'available', 'FINISHED', 'standing by for orders']) {
      expect(classifyStatusText(text)).toBe('idle');
    }
  });

  it('reads anything else as working', () => {
    expect(classifyStatusText('Refactoring the parser')).toBe('working');
    expect(classifyStatusText('')).toBe('working');
  });

  it('lets the first matching rule win', () => {
    expect(classifyStatusText('done, waiting for review')).toBe('blocked');
    expect(classifyStatusText('done reviewing')).toBe('reviewing');
  });
});

describe('presence that follows a task status', () => {
  it('maps in_progress, blocked and in_review, and everything else to idle', () => {
    expect(presenceForTaskStatus('in_progress')).toBe('working');
    expect(presenceForTaskStatus('blocked')).toBe('blocked');
    expect(presenceForTaskStatus('in_review')).toBe('reviewing');
    for (const status of ['proposed', 'accepted', 'assigned', 'merged', 'done', 'cancelled']) {
      expect(presenceForTaskStatus(status)).toBe('idle');
    }
  });
});

describe('storing presence', () => {
  it('sets status and text, touches last seen and tells the app', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Juniper');
    fx.events.length = 0;
    fx.advance(5_000);
    await fx.store.write((tx) => setPresence(tx, s.session_id, 'blocked', 'waiting on Ada'));
    expect(await getSession(fx.store.q, s.session_id)).toMatchObject({
      status: 'blocked', status_text: 'waiting on Ada', last_seen_at: '2026-05-01T09:30:05.000Z',
    });
    expect(fx.events).toEqual([{ type: 'worker.changed', place: 'local', roomId: 'R', sessionId: s.session_id, change: 'presence' }]);
  });

  it('keeps only the latest reasoning', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Juniper');
    const update = (summary: string): ReasoningUpdate => ({
      summary, goal: 'ship', checking: null, hypothesis: null, blocker: null, next_action: 'test', confidence: 0.5,
      created_at: '2026-05-01T09:30:00.000Z',
    });
    fx.events.length = 0;
    await fx.store.write((tx) => setReasoning(tx, s.session_id, update('first')));
    await fx.store.write((tx) => setReasoning(tx, s.session_id, update('second')));
    expect(fx.events).toHaveLength(2);
    expect(fx.events[1]).toEqual({ type: 'worker.changed', place: 'local', roomId: 'R', sessionId: s.session_id, change: 'updated' });
    expect(readReasoning((await getSession(fx.store.q, s.session_id))!)).toEqual(update('second'));
    expect(readReasoning(s)).toBeNull();
  });

  it('touches last seen without announcing anything', async () => {
    const fx = await makeFixture();
    const s = await register(fx, 'k-4f7a9c2e81d6b035', 'R', 'Juniper');
    fx.events.length = 0;
    fx.advance(90_000);
    await fx.store.write((tx) => touchLastSeen(tx, s.session_id));
    expect(await getSession(fx.store.q, s.session_id)).toMatchObject({
      last_seen_at: '2026-05-01T09:31:30.000Z', updated_at: s.updated_at, status: 'idle',
    });
    expect(fx.events).toEqual([]);
  });
});
