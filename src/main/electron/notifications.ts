// Native notifications for what newly needs the person: an agent's request, a mention of
// them, a task entering review (or getting blocked). Clicking one opens it. The
// "notifications" setting turns them all off; nothing pops up while the window has focus.
import { Notification } from 'electron';
import { needsYouKey, type NeedsYouItem } from '../../shared/model/needsYou';
import type { Settings } from '../../shared/model/app';
import { openTargetFor, type OpenTarget } from './openTarget';
import { callApi, type ShellApi } from './shellApi';
import type { ShellStatus, ShellStatusSnapshot } from './shellStatus';

/** More new items than this at once become one summary notification. */
export const MAX_NOTIFICATIONS_AT_ONCE = 3;
const BODY_CHARS = 180;

export interface NotifierDeps {
  readonly api: ShellApi;
  readonly status: ShellStatus;
  /** The person is looking at the app: the window shows it already. */
  isWindowFocused(): boolean;
  open(target: OpenTarget): void;
}

export const itemKey = (item: NeedsYouItem) => needsYouKey(item.ref);

export function notificationText(item: NeedsYouItem): { title: string; body: string } {
  const where = ` · ${item.roomName}`;
  // What the app noticed itself says it in its title ("Birch hasn't picked up your message").
  if (item.alert) return { title: item.title, body: clip(item.body) + where };
  switch (item.reason) {
    case 'mention':
      return { title: `${item.from} mentioned you`, body: clip(item.body) + where };
    case 'task_in_review':
      return { title: 'Task ready for review', body: clip(item.title) + where };
    case 'task_blocked':
      return { title: 'Task blocked', body: clip(item.title) + where };
    default:
      return { title: `${item.from} needs you`, body: clip(item.title) + where };
  }
}

/** Items in `next` that were not in `previous`. */
export function newItems(previous: ShellStatusSnapshot, next: ShellStatusSnapshot): NeedsYouItem[] {
  const known = new Set(previous.needsYou.map(itemKey));
  return next.needsYou.filter((item) => !known.has(itemKey(item)));
}

export class NeedsYouNotifier {
  /** Shown notifications are kept until closed: a collected one loses its click handler. */
  private readonly live = new Set<Notification>();
  private primed = false;
  private stopListening: (() => void) | null = null;

  constructor(private readonly deps: NotifierDeps) {}

  start(): void {
    this.stopListening = this.deps.status.onChange((next, previous) => void this.changed(next, previous));
  }

  stop(): void {
    this.stopListening?.();
    for (const notification of this.live) notification.close();
    this.live.clear();
  }

  private async changed(next: ShellStatusSnapshot, previous: ShellStatusSnapshot): Promise<void> {
    // The first snapshot is what was already waiting at start-up: no burst of old news.
    if (!this.primed) {
      this.primed = true;
      return;
    }
    const fresh = newItems(previous, next);
    if (fresh.length === 0 || this.deps.isWindowFocused() || !Notification.isSupported()) return;
    if (!(await this.enabled())) return;
    if (fresh.length > MAX_NOTIFICATIONS_AT_ONCE) {
      this.show({ title: `${fresh.length} new things need you`, body: 'Open "Needs you" to see them.' }, { view: 'needsYou' });
      return;
    }
    // Oldest first, so the newest ends up on top.
    for (const item of [...fresh].reverse()) this.show(notificationText(item), openTargetFor(item));
  }

  private async enabled(): Promise<boolean> {
    const settings = (await callApi(this.deps.api, 'settings.get')) as Settings | null;
    // Where settings cannot be read, the default (on) applies.
    return settings?.notifications !== false;
  }

  private show(text: { title: string; body: string }, target: OpenTarget): void {
    const notification = new Notification({ title: text.title, body: text.body, silent: false });
    this.live.add(notification);
    notification.on('click', () => {
      this.live.delete(notification);
      this.deps.open(target);
    });
    notification.on('close', () => this.live.delete(notification));
    notification.show();
  }
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  const chars = Array.from(flat);
  return chars.length <= BODY_CHARS ? flat : `${chars.slice(0, BODY_CHARS - 1).join('')}…`;
}
