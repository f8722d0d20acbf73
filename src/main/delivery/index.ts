// Delivery you can see (issue 14): the services the MCP layer and the app API share —
// receipts as tools deliver messages, each session's reachability, the token meter, the
// loop guard, pushes into open sessions (issue 26), and the person's limits. The hub builds them; the "Needs you" watcher
// (alerts.ts) is built with the app, beside the managed agents.
import type { EventBus } from '../events/bus';
import type { PresenceRow } from '../domain/sessions/presence';

/** An app named by a row of the room's database, and when it last heartbeat there. */
export interface AppHostRow {
  readonly host_id: string | null;
  readonly host_heard_at: string | null;
}
import type { Places } from '../store/places';
import { Deliveries } from './deliveries';
import { DeliverySettings } from './deliverySettings';
import { LoopGuard } from './loopGuard';
import { Pushes } from './pushes';
import { Reachability } from './reachability';
import { TokenMeter } from './tokenMeter';
import { TurnClock } from './turnClock';

export interface DeliveryServices {
  readonly settings: DeliverySettings;
  readonly deliveries: Deliveries;
  readonly reachability: Reachability;
  readonly meter: TokenMeter;
  readonly loopGuard: LoopGuard;
  /** Messages pushed into open sessions not inside a wait (issue 26). */
  readonly pushes: Pushes;
  /** Ends @all turns at their deadlines (issue 34). */
  readonly turnClock: TurnClock;
  /** A team room's session held by another machine's app that is heard from (mcp/hub.ts isOnline). */
  heldElsewhere(place: string, session: PresenceRow): boolean;
  /** Whether the app that runs a managed agent runs now: this app (no host named: this computer's room), or another app of the team heard from. */
  appAlive(place: string, host: AppHostRow): boolean;
  close(): Promise<void>;
}

/**
 * Receipts, the meter and the loop guard work in each room's place; the limits are this
 * computer's; reachability is keyed by place and session (placeKey), as `isOnline` is.
 */
export function createDeliveryServices(
  places: Places,
  bus: EventBus,
  isOnline: (sessionKey: string) => boolean,
  heldElsewhere: (place: string, session: PresenceRow) => boolean,
  appAlive: (place: string, host: AppHostRow) => boolean,
): DeliveryServices {
  const settings = new DeliverySettings(places.local);
  const deliveries = new Deliveries(places);
  const reachability = new Reachability(isOnline);
  const meter = new TokenMeter(places, settings);
  const loopGuard = new LoopGuard(places, bus, settings);
  const pushes = new Pushes();
  const turnClock = new TurnClock(bus);
  const stopHearingCalls = reachability.onCall((key) => pushes.called(key));
  return {
    settings,
    deliveries,
    reachability,
    meter,
    loopGuard,
    pushes,
    turnClock,
    heldElsewhere,
    appAlive,
    async close() {
      stopHearingCalls();
      pushes.close();
      turnClock.close();
      await loopGuard.close();
      reachability.close();
      await deliveries.close();
      await meter.close();
    },
  };
}
