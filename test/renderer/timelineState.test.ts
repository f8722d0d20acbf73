// The loaded window of a room: pages join it in order, once each, wherever they land.
import { describe, expect, it } from 'vitest';
import { applyLiveMessage, mergeMessages } from '../../src/renderer/src/views/chat/timelineState';
import { agentPerson, message } from './support/fakeData';

const juniper = agentPerson('Juniper');
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => message('r', from + i, juniper, `m${from + i}`));
const numbers = (list: { number: number }[]) => list.map((m) => m.number);

describe('merging pages into the window', () => {
  it('puts an older page above and a newer page below', () => {
    expect(numbers(mergeMessages(range(101, 200), range(1, 100)))).toEqual(numbers(range(1, 200)));
    expect(numbers(mergeMessages(range(1, 100), range(101, 150)))).toEqual(numbers(range(1, 150)));
  });

  it('keeps each message once when a page overlaps the window, taking the page’s copy', () => {
    const fresher = range(90, 110).map((m) => ({ ...m, replyCount: 3 }));
    const merged = mergeMessages(range(1, 100), fresher);
    expect(numbers(merged)).toEqual(numbers(range(1, 110)));
    expect(merged.find((m) => m.number === 95)?.replyCount).toBe(3);
  });

  it('sorts a page that arrives out of order', () => {
    expect(numbers(mergeMessages(range(10, 20), [...range(1, 5)].reverse()))).toEqual([1, 2, 3, 4, 5, ...numbers(range(10, 20))]);
  });

  it('a live message at the bottom joins the window; a thread reply only bumps its root', () => {
    const window = { messages: range(1, 3), hasMoreBefore: false, hasMoreAfter: false };
    expect(numbers(applyLiveMessage(window, message('r', 4, juniper, 'new')).messages)).toEqual([1, 2, 3, 4]);
    const reply = message('r', 5, juniper, 'reply', { threadRootNumber: 2 });
    const after = applyLiveMessage(window, reply);
    expect(numbers(after.messages)).toEqual([1, 2, 3]);
    expect(after.messages[1].replyCount).toBe(1);
  });
});
