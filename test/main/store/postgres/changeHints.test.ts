// A team's NOTIFY hints (changeHints.ts): a new message's hint says "more is coming" while the
// sending app has another call on its way to that room (issue 38), and a receiver takes that
// flag only as a flag of new messages, from another app.
import { describe, expect, it } from 'vitest';
import { hintsOf, parseHint } from '../../../../src/main/store/postgres/changeHints';

describe('NOTIFY hints', () => {
  it('say more is coming on a new message while the sender has another call on its way to that room, and not otherwise', () => {
    const busy = (roomId: string) => roomId === 'lab';
    const [alone] = hintsOf('app-a', [{ type: 'message.created', roomId: 'lab', number: 7 }]);
    const [inBurst, otherRoom] = hintsOf('app-a', [{ type: 'message.created', roomId: 'lab', number: 8 }, { type: 'message.created', roomId: 'hall', number: 2 }], busy);
    expect(JSON.parse(otherRoom)).not.toHaveProperty('more');
    expect(parseHint('app-b', 'acme', alone)).toEqual({ type: 'message.created', roomId: 'lab', number: 7, place: 'acme', remote: true });
    expect(parseHint('app-b', 'acme', inBurst)).toEqual({ type: 'message.created', roomId: 'lab', number: 8, more: true, place: 'acme', remote: true });
    // The sender ignores its own.
    expect(parseHint('app-a', 'acme', inBurst)).toBeNull();
  });

  it('carry the flag on new messages only, and nothing but `true` counts', () => {
    const [task] = hintsOf('app-a', [{ type: 'task.changed', roomId: 'lab', number: 3 }], () => true);
    expect(JSON.parse(task)).not.toHaveProperty('more');
    const forged = (more: unknown, type = 'message.created') => parseHint('app-b', 'acme', JSON.stringify({ a: 'app-x', type, roomId: 'lab', number: 9, more }));
    expect(forged('yes')).not.toHaveProperty('more');
    expect(forged(1)).not.toHaveProperty('more');
    expect(forged(true, 'task.changed')).not.toHaveProperty('more');
    expect(forged(true)).toMatchObject({ more: true });
  });

  it('say a turn of an @all moved (issue 34), merged with other receipts of the session, and nothing but `true` counts', () => {
    const [hint] = hintsOf('app-a', [
      { type: 'message.receipts', roomId: 'lab', sessionId: 's1', first: 4, last: 4, turn: true },
      { type: 'message.receipts', roomId: 'lab', sessionId: 's1', first: 6, last: 9 },
    ]);
    expect(parseHint('app-b', 'acme', hint)).toEqual({ type: 'message.receipts', roomId: 'lab', sessionId: 's1', first: 4, last: 9, turn: true, place: 'acme', remote: true });
    const forged = (turn: unknown, type = 'message.receipts') => parseHint('app-b', 'acme', JSON.stringify({ a: 'app-x', type, roomId: 'lab', sessionId: 's1', first: 1, last: 1, number: 1, turn }));
    expect(forged('yes')).not.toHaveProperty('turn');
    expect(forged(true, 'task.changed')).not.toHaveProperty('turn');
    expect(forged(true)).toMatchObject({ turn: true });
  });
});
