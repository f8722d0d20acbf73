// The turn clock (issue 34 item 2): a turn nobody ends moves on at its deadline; the clock keeps
// one timer per room, at the earliest deadline, and says so on the bus (waiters, receipts) and to
// its listeners (managed triggers).
import { afterEach, describe, expect, it } from 'vitest';
import { EventBus } from '../../../src/main/events/bus';
import { TurnClock } from '../../../src/main/delivery/turnClock';
import { waitUntil } from '../../support/waitUntil';

const clocks: TurnClock[] = [];
afterEach(() => clocks.splice(0).forEach((c) => c.close()));

function clockOn(): { clock: TurnClock; heard: string[] } {
  const bus = new EventBus();
  const clock = new TurnClock(bus);
  clocks.push(clock);
  const heard: string[] = [];
  bus.on('message.receipts', (e) => heard.push(`bus ${e.place}/${e.roomId} #${e.first}-${e.last} turn=${e.turn}`));
  clock.onTurn((place, roomId, number) => heard.push(`listener ${place}/${roomId} #${number}`));
  return { clock, heard };
}

describe('the turn clock', () => {
  it('says a turn moved at its deadline, on the bus and to its listeners', async () => {
    const { clock, heard } = clockOn();
    clock.dueAt('local', 'lab', 7, Date.now() + 50);
    await waitUntil(() => heard.length === 2, 5_000, 'the deadline');
    expect(heard).toEqual(['bus local/lab #7-7 turn=true', 'listener local/lab #7']);
  });

  it('keeps the earliest deadline of a room; a later one is asked again by the next look', async () => {
    const { clock, heard } = clockOn();
    clock.dueAt('local', 'lab', 9, Date.now() + 60_000);
    clock.dueAt('local', 'lab', 8, Date.now() + 30);
    clock.dueAt('local', 'lab', 10, Date.now() + 90_000);
    await waitUntil(() => heard.length === 2, 5_000, 'the earliest deadline');
    // Bounded: no other deadline of the room fires meanwhile (the later ones were not kept).
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(heard).toEqual(['bus local/lab #8-8 turn=true', 'listener local/lab #8']);
  });

  it('says a pass at once', () => {
    const { clock, heard } = clockOn();
    clock.moved('team', 'lab', 3);
    expect(heard).toEqual(['bus team/lab #3-3 turn=true', 'listener team/lab #3']);
  });
});
