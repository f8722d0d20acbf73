// Keeps the keyboard with a card that changes column: its old element goes away, so focus
// moves to the card's "Move to…" button in the new column. And says each move once, for
// screen readers, whoever made it (the person's own move is also a toast, the same sentence).
import { useEffect, useRef } from 'react';
import type { TaskCard } from '../../../../shared/types';
import { useAnnounce } from '../../components/LiveAnnouncer';
import { movedText } from './boardRules';

/** The card element of a task on the board (its `data-task` holds the number). */
export function cardElement(number: number): HTMLElement | null {
  return document.querySelector<HTMLElement>(`.board [data-task="${number}"]`);
}

/** Returns `follow(task)`: call it before acting on a card, so focus follows the card if the action moves it. */
export function useBoardFocus(tasks: readonly TaskCard[]): (task: TaskCard) => void {
  const announce = useAnnounce();
  const following = useRef<{ number: number; from: TaskCard['status'] } | null>(null);
  const statuses = useRef<Map<number, TaskCard['status']> | null>(null);

  useEffect(() => {
    const before = statuses.current;
    statuses.current = new Map(tasks.map((task) => [task.number, task.status]));
    if (before) for (const task of tasks) if (before.has(task.number) && before.get(task.number) !== task.status) announce(movedText(task));

    // Once the card has moved (or gone), its old element with the focus is gone too.
    const follow = following.current;
    if (!follow || tasks.find((task) => task.number === follow.number)?.status === follow.from) return;
    following.current = null;
    const active = document.activeElement;
    if (!active || active === document.body) cardElement(follow.number)?.querySelector<HTMLElement>('[aria-haspopup="menu"]')?.focus();
  }, [tasks, announce]);

  return (task) => {
    const focusInCard = document.activeElement?.closest('[data-task]') === cardElement(task.number);
    following.current = focusInCard ? { number: task.number, from: task.status } : null;
  };
}
