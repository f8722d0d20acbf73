// What every tool call can reach: the places (this computer's store and the teams'), the
// events, the worker bindings and presence, owner identity, sign-in, delivery (issue 14), and
// the per-connection state.
import type { DeliveryServices } from '../delivery';
import type { EventBus } from '../events/bus';
import type { IncomingWrite } from '../events/incomingWrites';
import type { PresenceRow } from '../domain/sessions/presence';
import type { SessionHost } from '../domain/sessions/sessions';
import type { Places } from '../store/places';
import type { Storage } from '../store/port';
import type { WorkerBindings } from './bindings';
import type { ConnectionState } from './connectionState';
import type { RoomReads } from './roomReads';
import type { RoomSignals } from './roomSignals';
import type { WakeLog } from './wakeLog';
import type { AuthService } from '../auth/authService';
import type { GitHubData } from '../auth/githubData';
import type { Approvals } from '../approvals/approvals';

export interface OwnerIdentity {
  readonly ownerLabel: string;
  readonly ownerSlug: string;
}

export interface McpServices {
  /** This computer's storage: its own rooms, the host id, clients' saved rooms. */
  readonly store: Storage;
  /** Every place a room can be in: 'local' and the teams. */
  readonly places: Places;
  readonly bus: EventBus;
  readonly bindings: WorkerBindings;
  readonly signals: RoomSignals;
  /** One read of a room's new messages for all the waits a commit wakes. */
  readonly roomReads: RoomReads;
  /** Why each session was woken, for the people watching (in memory). */
  readonly wakes: WakeLog;
  /** This installation's host id (kept in settings). */
  hostId(): Promise<string>;
  /** This app as a session's holder: its host id and this machine's name. */
  host(): Promise<SessionHost>;
  /**
   * Whether a session shows online: held by this app (memory, worker-handles.md §9), or, in a
   * team room, held by another app that has heartbeat within 30 s and not let go (10 s grace).
   */
  isOnline(place: string, session: PresenceRow): boolean;
  readonly version: string;
  owner(): Promise<OwnerIdentity>;
  /** GitHub sign-in; null where the host runs without one (some tests). */
  readonly auth: AuthService | null;
  /** Cached GitHub facts (PR state of task links); null without sign-in support. */
  readonly githubData: GitHubData | null;
  /** get_current_room's `auth`: {source:"keychain", expires_at, account} when signed in, else null. */
  authSummary(): Promise<{ source: 'keychain'; expires_at: string | null; account: unknown } | null>;
  /** Records activity of a session of `place` (reachability: working); flushed to last_seen_at in batches so reads stay read-only. */
  touchSession(place: string, sessionId: string): void;
  /** How often a waiting wait_for_messages sends progress (10 s; tests of long waits shorten it). */
  readonly waitProgressMs: number;
  /** How long one @all turn lasts at most (90 s; tests shorten it). */
  readonly turnWaitMs: number;
  /** Receipts, reachability, the token meter, the loop guard and their limits (issue 14). */
  readonly delivery: DeliveryServices;
  /** Tool uses agents ask the person about ("Ask me" turns, the channel permission relay). */
  readonly approvals: Approvals;
}

/** Which room and agent session a tool call acts for, as the call resolves them (callScope.ts). */
export interface CallScope {
  /** The room's place ('local' or a team): its token meter rows live there. */
  place: string | null;
  roomId: string | null;
  sessionId: string | null;
  /** The call among the writes on their way (events/incomingWrites.ts), when it may write. */
  readonly incoming?: IncomingWrite | null;
}

export interface ToolEnv {
  readonly services: McpServices;
  readonly conn: ConnectionState;
  /** Settles once the connection's auto-join (after initialize) is done. */
  ready: Promise<void>;
  /** Inside one tool call: the room and session it resolved (the token meter charges them). */
  readonly scope?: CallScope;
}
