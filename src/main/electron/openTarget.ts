// Where the window goes when the person clicks a notification or a tray entry: a route in
// the renderer's own words (src/shared/model/openRoute.ts), pushed on the event channel as `app.open`.
import type { NeedsYouItem } from '../../shared/model/needsYou';
import type { OpenRoute } from '../../shared/model/openRoute';

export type OpenTarget = OpenRoute;

/** The message pushed to the renderer; it navigates to `route`. */
export interface OpenMessage {
  readonly type: 'app.open';
  readonly route: OpenTarget;
}

export const openMessage = (route: OpenTarget): OpenMessage => ({ type: 'app.open', route });

/** A request is answered in the "Needs you" view; a task opens on the board; a mention in its thread. */
export function openTargetFor(item: NeedsYouItem): OpenTarget {
  const { kind, roomId, number, place } = item.ref;
  if (kind === 'task') return { view: 'room', roomId, place, tab: 'board', task: number };
  if (kind === 'mention') return { view: 'room', roomId, place, tab: 'chat', threadRoot: item.threadRootNumber ?? number, focus: number };
  return { view: 'needsYou' };
}
