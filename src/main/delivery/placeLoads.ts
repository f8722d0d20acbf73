// What a delivery service keeps in memory of each place's store (the loop guard's pauses, the
// open "Needs you" items), read once per place: at the start from every place reachable then,
// and a team's when it comes online later in the app's life (offline at the start, or added
// since; `place.online`), or comes back after its read failed (`place.reconnected`).
import type { EventBus } from '../events/bus';
import { openedStorage, type Places } from '../store/places';
import type { Storage } from '../store/port';
import type { Background } from './background';

export class PlaceLoads {
  /** Places read or being read: marked before the read, so two events never read one twice. */
  private readonly loaded = new Set<string>();
  private readonly offs: Array<() => void>;
  /** Settles once the places reachable at the start are read (a failed one is logged and left for its next coming online). */
  readonly ready: Promise<void>;

  /**
   * `load` reads a place into memory, all or nothing (it keeps what it read only once every
   * read is done): a failed load is tried again when the place comes back. `then` runs after
   * a place's load, in the background (for the start's places, once all of them are read).
   */
  constructor(
    places: Places,
    bus: EventBus,
    background: Background,
    private readonly load: (storage: Storage) => Promise<void>,
    then: (storage: Storage) => Promise<void> = async () => undefined,
  ) {
    const started = places.reachable().then((stores) => Promise.all(stores.map(async (s) => ((await this.loadOnce(s)) ? [s] : []))));
    this.ready = started.then(
      () => undefined,
      (error: unknown) => console.error('delivery: could not look at the places:', error),
    );
    background.run('the start', async () => {
      for (const storage of (await started).flat()) await then(storage);
    });
    const later = ({ place }: { place: string }) =>
      background.run(`reading ${place}`, async () => {
        // A place read at the start is marked by then.
        await this.ready;
        const storage = openedStorage(places, place);
        if (storage && (await this.loadOnce(storage))) await then(storage);
      });
    this.offs = [bus.on('place.online', later), bus.on('place.reconnected', later)];
  }

  close(): void {
    for (const off of this.offs) off();
  }

  /** Reads the place unless it is read already; whether it did. */
  private async loadOnce(storage: Storage): Promise<boolean> {
    if (this.loaded.has(storage.place)) return false;
    this.loaded.add(storage.place);
    try {
      await this.load(storage);
      return true;
    } catch (error) {
      this.loaded.delete(storage.place);
      console.error(`delivery: could not read what is kept in ${storage.place}:`, error);
      return false;
    }
  }
}
