// Where the window goes when the person clicks a notification or a tray entry: a route in
// the renderer's own words (src/renderer/src/app/navigation.tsx), pushed on the event channel.
import type { NeedsYouItem } from '../../shared/model/needsYou';

export type OpenTarget =
  | { view: 'needsYou' }
  | { view: 'settings' }
  | { view: 'room'; roomId: string; tab: 'chat'; threadRoot?: number; focus?: number }
  | { view: 'room'; roomId: string; tab: 'board'; task: number };

/** The message pushed to the renderer; it navigates to `route`. */
export interface OpenMessage {
  readonly type: 'app.open';
  readonly route: OpenTarget;
}

export const openMessage = (route: OpenTarget): OpenMessage => ({ type: 'app.open', route });

/** A request is answered in the "Needs you" view; a task opens on the board; a mention in its thread. */
export function openTargetFor(item: NeedsYouItem): OpenTarget {
  const { kind, roomId, number } = item.ref;
  if (kind === 'task') return { view: 'room', roomId, tab: 'board', task: number };
  if (kind === 'mention') return { view: 'room', roomId, tab: 'chat', threadRoot: item.threadRootNumber ?? number, focus: number };
  return { view: 'needsYou' };
}
