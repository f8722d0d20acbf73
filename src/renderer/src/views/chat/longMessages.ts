// Very long messages (more than ~30 lines) show collapsed with "Show more". What the person
// opened stays open while the app runs, even when the row scrolls away and comes back.
import { useCallback, useState } from 'react';

const LONG_LINES = 30;
/** Text this long fills 30 lines even without line breaks, in all but the widest windows. */
const LONG_CHARS = 6000;

export function isLongMessage(text: string): boolean {
  if (text.length > LONG_CHARS) return true;
  let lines = 1;
  for (let at = text.indexOf('\n'); at >= 0 && lines <= LONG_LINES; at = text.indexOf('\n', at + 1)) lines++;
  return lines > LONG_LINES;
}

const expanded = new Set<string>();

/** Whether the message is shown whole, and the toggle. */
export function useExpanded(roomId: string, number: number): [boolean, () => void] {
  const key = `${roomId}\n${number}`;
  const [open, setOpen] = useState(() => expanded.has(key));
  const toggle = useCallback(() => {
    setOpen((was) => {
      if (was) expanded.delete(key);
      else expanded.add(key);
      return !was;
    });
  }, [key]);
  return [open, toggle];
}
