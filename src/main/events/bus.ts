// The typed event bus. The store publishes an event only after its transaction commits,
// so listeners (waiting agents, the UI, MCP notifications) never see a rolled-back write.
// It also knows what may be published soon: the calls on their way to a write.
import { IncomingWrites } from './incomingWrites';
import type { CoreEvent } from './types';

type Listener<E extends CoreEvent> = (event: E) => void;
type EventOf<T extends CoreEvent['type']> = Extract<CoreEvent, { type: T }>;

export class EventBus {
  private readonly listeners = new Map<string, Set<Listener<CoreEvent>>>();
  /** Calls that may still write (and so publish a message): a woken wait gathers while any is on its way. */
  readonly incoming = new IncomingWrites();

  on<T extends CoreEvent['type']>(type: T, listener: Listener<EventOf<T>>): () => void {
    let set = this.listeners.get(type);
    if (!set) this.listeners.set(type, (set = new Set()));
    set.add(listener as Listener<CoreEvent>);
    return () => set.delete(listener as Listener<CoreEvent>);
  }

  /** Listens to every event (bridges to the UI forward all of them). */
  onAny(listener: Listener<CoreEvent>): () => void {
    return this.on('*' as CoreEvent['type'], listener as never);
  }

  publish(event: CoreEvent): void {
    for (const key of [event.type, '*']) {
      for (const listener of this.listeners.get(key) ?? []) {
        try {
          listener(event);
        } catch (error) {
          // One faulty listener must not stop the others or the writer.
          console.error(`event listener for ${event.type} failed:`, error);
        }
      }
    }
  }
}
