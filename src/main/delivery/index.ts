// Delivery you can see (issue 14): the services the MCP layer and the app API share —
// receipts as tools deliver messages, each session's reachability, the token meter, the
// loop guard, and the person's limits. The hub builds them; the "Needs you" watcher
// (alerts.ts) is built with the app, beside the managed agents.
import type { EventBus } from '../events/bus';
import type { Storage } from '../store/port';
import { Deliveries } from './deliveries';
import { DeliverySettings } from './deliverySettings';
import { LoopGuard } from './loopGuard';
import { Reachability } from './reachability';
import { TokenMeter } from './tokenMeter';

export interface DeliveryServices {
  readonly settings: DeliverySettings;
  readonly deliveries: Deliveries;
  readonly reachability: Reachability;
  readonly meter: TokenMeter;
  readonly loopGuard: LoopGuard;
  close(): Promise<void>;
}

export function createDeliveryServices(store: Storage, bus: EventBus, isOnline: (sessionId: string) => boolean): DeliveryServices {
  const settings = new DeliverySettings(store);
  const deliveries = new Deliveries(store);
  const reachability = new Reachability(isOnline);
  const meter = new TokenMeter(store, settings);
  const loopGuard = new LoopGuard(store, bus, settings);
  return {
    settings,
    deliveries,
    reachability,
    meter,
    loopGuard,
    async close() {
      await loopGuard.close();
      reachability.close();
      await deliveries.close();
      await meter.close();
    },
  };
}
