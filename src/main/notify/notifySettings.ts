// Notification settings (issue 37): where they go (an ntfy topic URL or a webhook, with an
// optional token, kept in the OS keychain only: the URL of a public ntfy topic is its secret),
// which kinds notify, whether the message text goes along, and per room a level (all,
// mentions, muted) and a snooze; plus a snooze of everything. The rest is in the settings table.
import type { NotifyKind, NotifySettings as NotifySettingsView, NotifySettingsPatch, NotifyTargetInput, RoomNotifyInput, RoomNotifyLevel, Snooze } from '../../shared/model/notifications';
import { appErrors, DomainError } from '../domain/errors';
import { LOCAL_PLACE } from '../store/places';
import type { Storage } from '../store/port';
import { getSetting, setSetting } from '../store/settingsQueries';
import { describeKeychainProblem, KeychainUnavailableError, type SecretStore } from '../secrets/secretStore';

/** The keychain account of the notification target. */
export const NOTIFY_TARGET_ACCOUNT = 'notifications-target';

const KEYS = { kinds: 'notify.kinds', includeText: 'notify.includeText', snoozedUntil: 'notify.snoozedUntil', rooms: 'notify.rooms', targetKind: 'notify.targetKind' } as const;

/** "Action needed" kinds notify by default; "turn finished" only when asked for. */
export const DEFAULT_KINDS: Readonly<Record<NotifyKind, boolean>> = { approval: true, blocked_task: true, cant_run: true, mention: true, turn_finished: false };

export interface NotifyTarget {
  readonly kind: 'ntfy' | 'webhook';
  readonly url: string;
  readonly token: string | null;
}

interface RoomPref {
  level: RoomNotifyLevel;
  snoozedUntil: string | null;
}

/** What the notifier decides with. */
export interface NotifyPrefs {
  readonly kinds: Readonly<Record<NotifyKind, boolean>>;
  readonly includeText: boolean;
  readonly snoozedUntil: string | null;
  room(place: string, roomId: string): RoomPref;
}

const roomKey = (place: string, roomId: string) => `${place}\n${roomId}`;

export class NotifySettings {
  constructor(
    private readonly store: Storage,
    private readonly secrets: SecretStore,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async view(): Promise<NotifySettingsView> {
    const prefs = await this.prefs();
    const kind = await this.store.read((q) => getSetting(q, KEYS.targetKind));
    const rooms = await this.roomPrefs();
    return {
      target: kind === 'ntfy' || kind === 'webhook' ? { kind, shownUrl: await this.shownUrl() } : null,
      kinds: { ...prefs.kinds },
      includeText: prefs.includeText,
      snoozedUntil: prefs.snoozedUntil,
      rooms: [...rooms].map(([key, pref]) => {
        const [place, roomId] = key.split('\n');
        return { roomId, place, level: pref.level, snoozedUntil: live(pref.snoozedUntil, this.now()) };
      }),
    };
  }

  async prefs(): Promise<NotifyPrefs> {
    const stored = await this.store.read(async (q) => ({
      kinds: await getSetting(q, KEYS.kinds),
      includeText: await getSetting(q, KEYS.includeText),
      snoozedUntil: await getSetting(q, KEYS.snoozedUntil),
    }));
    const rooms = await this.roomPrefs();
    const now = this.now();
    return {
      kinds: { ...DEFAULT_KINDS, ...parseJson<Partial<Record<NotifyKind, boolean>>>(stored.kinds, {}) },
      includeText: stored.includeText === 'on',
      snoozedUntil: live(stored.snoozedUntil, now),
      room: (place, roomId) => {
        const pref = rooms.get(roomKey(place, roomId));
        return { level: pref?.level ?? 'all', snoozedUntil: live(pref?.snoozedUntil ?? null, now) };
      },
    };
  }

  async update(patch: NotifySettingsPatch): Promise<NotifySettingsView> {
    const current = await this.prefs();
    await this.store.write(async (tx) => {
      if (patch.kinds) await setSetting(tx, KEYS.kinds, JSON.stringify({ ...current.kinds, ...patch.kinds }));
      if (patch.includeText !== undefined) await setSetting(tx, KEYS.includeText, patch.includeText ? 'on' : 'off');
      if (patch.snooze) await setSetting(tx, KEYS.snoozedUntil, snoozeUntil(patch.snooze, this.now()));
    });
    return this.view();
  }

  async setRoom(input: RoomNotifyInput): Promise<NotifySettingsView> {
    const rooms = await this.roomPrefs();
    const key = roomKey(input.place ?? LOCAL_PLACE, input.roomId);
    const pref: RoomPref = { level: input.level ?? rooms.get(key)?.level ?? 'all', snoozedUntil: rooms.get(key)?.snoozedUntil ?? null };
    if (input.snooze) pref.snoozedUntil = snoozeUntil(input.snooze, this.now());
    // A room back at "all" and not snoozed is the default: nothing to keep.
    if (pref.level === 'all' && live(pref.snoozedUntil, this.now()) === null) rooms.delete(key);
    else rooms.set(key, pref);
    await this.store.write((tx) => setSetting(tx, KEYS.rooms, JSON.stringify(Object.fromEntries(rooms))));
    return this.view();
  }

  /** Sets (or with kind "none" removes) where notifications go; the URL and token go to the keychain only. */
  async setTarget(input: NotifyTargetInput): Promise<NotifySettingsView> {
    if (input.kind === 'none') {
      await keychain(() => this.secrets.delete(NOTIFY_TARGET_ACCOUNT));
      await this.store.write((tx) => setSetting(tx, KEYS.targetKind, null));
      return this.view();
    }
    const url = checkTargetUrl(input.kind, input.url);
    const token = input.token?.trim() || null;
    await keychain(() => this.secrets.set(NOTIFY_TARGET_ACCOUNT, JSON.stringify({ url, token })));
    await this.store.write((tx) => setSetting(tx, KEYS.targetKind, input.kind));
    return this.view();
  }

  /** The target with its secrets, for sending; null when none is set. */
  async target(): Promise<NotifyTarget | null> {
    const kind = await this.store.read((q) => getSetting(q, KEYS.targetKind));
    if (kind !== 'ntfy' && kind !== 'webhook') return null;
    const stored = parseJson<{ url?: unknown; token?: unknown }>(await keychain(() => this.secrets.get(NOTIFY_TARGET_ACCOUNT)), {});
    if (typeof stored.url !== 'string') return null;
    return { kind, url: stored.url, token: typeof stored.token === 'string' ? stored.token : null };
  }

  private async shownUrl(): Promise<string> {
    try {
      const target = await this.target();
      return target ? redactTargetUrl(target.url) : '(missing from the keychain)';
    } catch {
      return '(the keychain cannot be read now)';
    }
  }

  private async roomPrefs(): Promise<Map<string, RoomPref>> {
    const stored = parseJson<Record<string, RoomPref>>(await this.store.read((q) => getSetting(q, KEYS.rooms)), {});
    return new Map(Object.entries(stored));
  }
}

/** https:, or http: to this computer only (a self-hosted ntfy here); no user:password in it; ntfy needs a topic. */
export function checkTargetUrl(kind: 'ntfy' | 'webhook', text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw appErrors.invalidInput(`"${text.slice(0, 80)}" is not a URL. An ntfy topic looks like https://ntfy.sh/your-secret-topic.`);
  }
  const local = ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && local)) {
    throw appErrors.invalidInput('Notifications leave this computer over https: only (http: only to a server on this computer).');
  }
  if (url.username || url.password) throw appErrors.invalidInput('Put no user name or password in the URL: give an access token instead.');
  if (kind === 'ntfy' && url.pathname.replace(/\/+$/, '').split('/').filter(Boolean).length === 0) {
    throw appErrors.invalidInput('An ntfy URL names its topic: https://ntfy.sh/your-secret-topic.');
  }
  return url.toString();
}

/** Scheme, host and port only: the path (an ntfy topic, a webhook's secret path) is the secret. */
export function redactTargetUrl(text: string): string {
  try {
    const url = new URL(text);
    return `${url.protocol}//${url.host}/…`;
  } catch {
    return '…';
  }
}

/** When a snooze ends: an hour, eight hours, 9:00 tomorrow (this computer's time), or null. */
export function snoozeUntil(snooze: Snooze, now: Date): string | null {
  if (snooze === 'off') return null;
  if (snooze === '1h') return new Date(now.getTime() + 3_600_000).toISOString();
  if (snooze === '8h') return new Date(now.getTime() + 8 * 3_600_000).toISOString();
  const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1, 9, 0, 0, 0);
  return tomorrow.toISOString();
}

function live(until: string | null, now: Date): string | null {
  return until !== null && Date.parse(until) > now.getTime() ? until : null;
}

function parseJson<T>(text: string | null, fallback: T): T {
  if (text === null) return fallback;
  try {
    return JSON.parse(text) as T;
  } catch {
    return fallback;
  }
}

/** A keychain call, its failure said as the app says it elsewhere (keychain_unavailable). */
async function keychain<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof KeychainUnavailableError) {
      throw new DomainError('keychain_unavailable', 'hard', describeKeychainProblem(error.reason, error.fix), undefined, { reason: error.reason, fix: error.fix });
    }
    throw error;
  }
}
