// UI-only signals that are not writes: e.g. a pull request's state arrived from GitHub
// after a board read. They must not go on the core bus, where they would wake agents.
import type { AppParts } from './appParts';

export type UiSignal =
  | { type: 'task.refreshed'; place: string; roomId: string; number: number }
  /** The phone listener or the paired phones changed (issue 37). */
  | { type: 'phone.changed' };

type Listener = (signal: UiSignal) => void;

const listenersByApp = new WeakMap<AppParts, Set<Listener>>();

function listenersOf(app: AppParts): Set<Listener> {
  let set = listenersByApp.get(app);
  if (!set) listenersByApp.set(app, (set = new Set()));
  return set;
}

export function emitUiSignal(app: AppParts, signal: UiSignal): void {
  for (const listener of listenersOf(app)) {
    try {
      listener(signal);
    } catch (error) {
      console.error('UI signal listener failed:', error);
    }
  }
}

export function onUiSignal(app: AppParts, listener: Listener): () => void {
  const set = listenersOf(app);
  set.add(listener);
  return () => set.delete(listener);
}
