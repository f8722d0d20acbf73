// How a woken wait gathers its burst (issue 38): a lone message is handed over with no quiet
// window, while a burst (a call still on its way, a queued write, another app's word that more
// is coming) is gathered into one result. The clock's timers are faked: what finishes without
// them advancing waited for no window. Real bus, real room signals; the storage is a stand-in
// that only says whether a write is queued.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { EventBus } from '../../../src/main/events/bus';
import { RoomSignals } from '../../../src/main/mcp/roomSignals';
import { BURST_MS, gatherBurst } from '../../../src/main/mcp/wakeGathering';
import type { RoomRef } from '../../../src/main/mcp/identity';
import type { Storage } from '../../../src/main/store/port';

const PLACE = 'acme';
const ROOM = 'lab';

/** Lets the event loop run a few real turns (setImmediate is not faked). */
const turns = async (n = 5) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve));
};

describe('gathering a wake\'s burst', () => {
  let bus: EventBus;
  let signals: RoomSignals;
  let storage: { writing: boolean };
  let room: RoomRef;

  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    bus = new EventBus();
    signals = new RoomSignals(bus);
    storage = { writing: false };
    room = { place: PLACE, roomId: ROOM, storage: storage as unknown as Storage };
  });
  afterEach(() => {
    signals.close();
    vi.useRealTimers();
  });

  /** Starts a gather and reports whether (and with what) it finished. */
  const gather = () => {
    const state: { done: boolean; more: boolean | null } = { done: false, more: null };
    void gatherBurst(signals, bus, room, Date.now() + 30_000, new AbortController().signal, () => undefined).then((more) => {
      state.done = true;
      state.more = more;
    });
    return state;
  };
  const commit = (number: number, extra: { remote?: boolean; more?: boolean } = {}) =>
    bus.publish({ type: 'message.created', place: PLACE, roomId: ROOM, number, ...extra });

  it('hands a lone message over at once: nothing is on its way, so no window is waited out', async () => {
    const state = gather();
    await turns();
    expect(state).toEqual({ done: true, more: false });
  });

  it('gathers while a call is on its way to the room, and ends when it ends, with the message it brought', async () => {
    const call = bus.incoming.begin();
    call.at(PLACE, ROOM);
    const state = gather();
    await turns();
    expect(state.done).toBe(false);
    commit(2);
    await turns();
    expect(state.done).toBe(false); // the call has not ended: it may write more
    call.end();
    await turns();
    expect(state).toEqual({ done: true, more: true });
  });

  it('ends as soon as a call on its way to the room ends without writing: still no window', async () => {
    const call = bus.incoming.begin();
    call.at(PLACE, ROOM);
    const state = gather();
    await turns();
    expect(state.done).toBe(false);
    call.end();
    await turns();
    expect(state).toEqual({ done: true, more: false });
  });

  it('takes a call that arrives with the message into account: it is dispatched before the gather looks', async () => {
    const state = gather();
    // The next line of a burst, read in the same turn of the loop as the message that woke the wait.
    const call = bus.incoming.begin();
    call.at(PLACE, ROOM);
    await turns();
    expect(state.done).toBe(false);
    commit(2);
    call.end();
    await turns();
    expect(state).toEqual({ done: true, more: true });
  });

  it('is not held by a call on its way to another room', async () => {
    const call = bus.incoming.begin();
    call.at(PLACE, 'elsewhere');
    const state = gather();
    await turns();
    expect(state).toEqual({ done: true, more: false });
    call.end();
  });

  it('waits for a call still finding its room no longer than it takes to find it, and 10 ms without a commit at most', async () => {
    const finding = bus.incoming.begin();
    const state = gather();
    await turns();
    expect(state.done).toBe(false);
    finding.at(PLACE, 'elsewhere'); // it was not for this room
    await turns();
    expect(state).toEqual({ done: true, more: false });

    const slow = bus.incoming.begin();
    const next = gather();
    await turns();
    vi.advanceTimersByTime(9);
    await turns();
    expect(next.done).toBe(false);
    vi.advanceTimersByTime(1);
    await turns();
    expect(next).toEqual({ done: true, more: false });
    slow.end();
  });

  it('waits 10 ms at most for a queued write of the place', async () => {
    storage.writing = true;
    const state = gather();
    await turns();
    vi.advanceTimersByTime(9);
    await turns();
    expect(state.done).toBe(false);
    vi.advanceTimersByTime(1);
    await turns();
    expect(state).toEqual({ done: true, more: false });
  });

  it('never holds a burst open past its end while calls keep coming', async () => {
    const call = bus.incoming.begin();
    call.at(PLACE, ROOM);
    const state = gather();
    await turns();
    vi.advanceTimersByTime(BURST_MS - 1);
    await turns();
    expect(state.done).toBe(false);
    vi.advanceTimersByTime(1);
    await turns();
    expect(state).toEqual({ done: true, more: false });
    call.end();
  });

  it('gathers another app\'s burst while its hints say more is coming, and stops at the hint that does not', async () => {
    commit(2, { remote: true, more: true });
    const state = gather();
    await turns();
    expect(state.done).toBe(false);
    commit(3, { remote: true, more: true });
    await turns();
    expect(state.done).toBe(false);
    commit(4, { remote: true });
    await turns();
    expect(state).toEqual({ done: true, more: true });
    // The room is quiet again: the next lone hint is handed over at once.
    commit(5, { remote: true });
    const next = gather();
    await turns();
    expect(next).toEqual({ done: true, more: false });
  });

  it('stops waiting for another app\'s announced burst at the burst\'s end when the rest never comes', async () => {
    commit(2, { remote: true, more: true });
    const state = gather();
    await turns();
    vi.advanceTimersByTime(BURST_MS);
    await turns();
    expect(state).toEqual({ done: true, more: false });
  });
});
