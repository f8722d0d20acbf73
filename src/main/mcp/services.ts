// What every tool call can reach: the core's store and events, the worker bindings,
// owner identity, sign-in, and the per-connection state.
import type { DeliveryServices } from '../delivery';
import type { EventBus } from '../events/bus';
import type { Storage } from '../store/port';
import type { WorkerBindings } from './bindings';
import type { ConnectionState } from './connectionState';
import type { RoomSignals } from './roomSignals';
import type { WakeLog } from './wakeLog';
import type { CallScope } from './callScope';
import type { AuthService } from '../auth/authService';
import type { GitHubData } from '../auth/githubData';

export interface OwnerIdentity {
  readonly ownerLabel: string;
  readonly ownerSlug: string;
}

export interface McpServices {
  readonly store: Storage;
  readonly bus: EventBus;
  readonly bindings: WorkerBindings;
  readonly signals: RoomSignals;
  /** Why each session was woken, for the people watching (in memory). */
  readonly wakes: WakeLog;
  /** This installation's host id (kept in settings). */
  hostId(): Promise<string>;
  /** The data folder (attachments are stored relative to it). */
  readonly dataDir: string;
  readonly version: string;
  owner(): Promise<OwnerIdentity>;
  /** GitHub sign-in; null where the host runs without one (some tests). */
  readonly auth: AuthService | null;
  /** Cached GitHub facts (PR state of task links); null without sign-in support. */
  readonly githubData: GitHubData | null;
  /** get_current_room's `auth`: {source:"keychain", expires_at, account} when signed in, else null. */
  authSummary(): Promise<{ source: 'keychain'; expires_at: string | null; account: unknown } | null>;
  /** Records activity (reachability: working); flushed to last_seen_at in batches so reads stay read-only. */
  touchSession(sessionId: string): void;
  /** How often a waiting wait_for_messages sends progress (10 s; tests of long waits shorten it). */
  readonly waitProgressMs: number;
  /** Receipts, reachability, the token meter, the loop guard and their limits (issue 14). */
  readonly delivery: DeliveryServices;
}

export interface ToolEnv {
  readonly services: McpServices;
  readonly conn: ConnectionState;
  /** Settles once the connection's auto-join (after initialize) is done. */
  ready: Promise<void>;
  /** Inside one tool call: the room and session it resolved (the token meter charges them). */
  readonly scope?: CallScope;
}
