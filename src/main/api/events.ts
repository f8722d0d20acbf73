// Core events (published after each commit, by this app or, for a team's rooms, by the
// team's other apps) turned into the contract's UI events: a new message and a changed task
// arrive ready to show, read from the room's place; the rest say what to refetch. One
// mapping per app is shared by every window or socket that listens.
import type { AppEvent } from '../../shared/events';
import type { AppParts } from './appParts';
import { isPromptOnly, getMessageRow } from '../domain/messages/read';
import { getTask } from '../domain/tasks';
import type { CoreEvent, RoomEvent } from '../events/types';
import type { Queryable } from '../store/port';
import { getTaskRow } from '../store/taskQueries';
import { viewerOf } from './context';
import { toTimelineMessage, type Viewer } from './models/messages';
import { toTaskCard } from './models/tasks';
import { toWake } from './models/wakes';
import { roomMeters } from './models/delivery';
import { reachabilityOf } from '../delivery/reachabilityOf';
import { getSession } from '../domain/sessions/sessions';
import { splitPlaceKey } from '../domain/placeKeys';
import { workerSessionId } from '../domain/identity/agentKeys';
import { getManagedAgentRow } from '../store/managedAgentQueries';
import { LOCAL_PLACE } from '../store/places';
import { onUiSignal } from './uiSignals';

/** A managed agent paused, resumed or held: its room's header and receipts hear its reachability (issue 35). */
async function managedReachability(app: AppParts, agentId: string): Promise<AppEvent[]> {
  return app.places.local.read(async (q): Promise<AppEvent[]> => {
    const agent = await getManagedAgentRow(q, agentId);
    const session = agent ? await getSession(q, workerSessionId(agent.worker_id, agent.room_id)) : undefined;
    if (!session) return [];
    return [{ type: 'worker.reachability', roomId: session.room_id, place: LOCAL_PLACE, sessionId: session.session_id, reachability: await reachabilityOf(q, app.hub.delivery, LOCAL_PLACE, session) }];
  });
}

export type UiListener = (event: AppEvent) => void;
export type UiSubscribe = (listener: UiListener) => () => void;

/** The UI events one core event becomes (none when what it names is already gone). */
export async function toUiEvents(app: AppParts, event: CoreEvent): Promise<AppEvent[]> {
  switch (event.type) {
    case 'auth.changed':
      return [{ type: 'auth.changed' }];
    case 'agent.changed':
      return [{ type: 'agent.changed', agentId: event.agentId }, ...(await managedReachability(app, event.agentId))];
    case 'agent.activity':
      return [{ type: 'agent.activity', agentId: event.agentId, turn: event.turn }];
    case 'place.reconnected':
      return [{ type: 'place.reconnected', place: event.place }];
    case 'place.online':
      // The UI learns it from teams.changed (the team's state), which comes with it.
      return [];
    default: {
      const viewer: Viewer = event.type === 'message.created' ? await viewerOf(app, event.place) : { handles: [], label: null };
      return (await app.places.get(event.place)).read((q) => roomUiEvents(app, q, event, viewer));
    }
  }
}

async function roomUiEvents(app: AppParts, q: Queryable, event: RoomEvent, viewer: Viewer): Promise<AppEvent[]> {
  const { place, roomId } = event;
  const needsYou: AppEvent = { type: 'needsYou.changed', roomId, place };
  switch (event.type) {
    case 'message.created': {
      const row = await getMessageRow(q, roomId, event.number);
      // Prompt-only rows are for agents; people never see them.
      if (!row || isPromptOnly(row)) return [];
      const message = await toTimelineMessage(q, row, viewer);
      const out: AppEvent[] = [{ type: 'message.created', roomId, place, message }];
      // The queue gains a mention, or loses one when the person (or, in a team, anyone) replies in its thread.
      if (message.mentionsYou || (row.source === 'human' && row.thread_root_number !== null)) out.push(needsYou);
      return out;
    }
    case 'task.changed': {
      const card = await taskCardOrNull(app, q, place, roomId, event.number);
      // Any status change may move the task into or out of review or blocked.
      return card ? [{ type: 'task.changed', roomId, place, task: card }, needsYou] : [];
    }
    case 'room.changed': {
      const out: AppEvent[] = [{ type: 'room.changed', roomId, place, change: event.change }];
      // Archived and deleted rooms leave the queue; unarchived ones come back.
      if (event.change === 'archived' || event.change === 'unarchived' || event.change === 'deleted') out.push(needsYou);
      return out;
    }
    case 'worker.changed':
      return [{ type: 'worker.changed', roomId, place, sessionId: event.sessionId, change: event.change }];
    case 'needsYou.changed':
      return [needsYou];
    case 'knowledge.changed':
      return [{ type: 'knowledge.changed', roomId, place }];
    case 'message.receipts':
      return [{ type: 'message.receipts', roomId, place, sessionId: event.sessionId, first: event.first, last: event.last }];
    case 'meter.changed': {
      const { room, sessions } = await roomMeters(app, q, event);
      return [{ type: 'meter.changed', roomId, place, room, sessions: [...sessions].map(([sessionId, meter]) => ({ sessionId, meter })) }];
    }
  }
}

async function taskCardOrNull(app: AppParts, q: Queryable, place: string, roomId: string, number: number) {
  const row = await getTaskRow(q, roomId, number);
  return row ? toTaskCard(app, place, await getTask(q, roomId, number), row) : null;
}

const subscribersByApp = new WeakMap<AppParts, UiSubscribe>();
/** Per app: resolves once every event published so far has been delivered to the UI. */
const settledByApp = new WeakMap<AppParts, () => Promise<void>>();

/** Resolves once the UI feed has delivered every event published so far (at once without a feed). */
export function uiEventsSettled(app: AppParts): Promise<void> {
  return settledByApp.get(app)?.() ?? Promise.resolve();
}

/**
 * The UI event feed of an app: subscribe(listener) returns the function that stops it.
 * Core events are mapped once and fanned out to every listener, in the order they came
 * (mapping reads the store, so each waits for the one before).
 */
export function eventsForUi(app: AppParts): UiSubscribe {
  const existing = subscribersByApp.get(app);
  if (existing) return existing;
  const listeners = new Set<UiListener>();
  let detach: (() => void) | null = null;
  const deliver = (events: AppEvent[]) => {
    for (const event of events) {
      for (const listener of [...listeners]) {
        try {
          listener(event);
        } catch (error) {
          console.error('UI event listener failed:', error);
        }
      }
    }
  };
  let queue: Promise<void> = Promise.resolve();
  const deliverInOrder = (events: () => AppEvent[] | Promise<AppEvent[]>) => {
    queue = queue.then(events).then(deliver, (error: unknown) => console.warn('UI event could not be prepared:', error));
  };
  const attach = () => {
    const offCore = app.core.bus.onAny((event) => deliverInOrder(() => toUiEvents(app, event)));
    const offSignals = onUiSignal(app, (signal) =>
      deliverInOrder(async () => {
        const card = await (await app.places.get(signal.place)).read((q) => taskCardOrNull(app, q, signal.place, signal.roomId, signal.number));
        return card ? [{ type: 'task.changed', roomId: signal.roomId, place: signal.place, task: card }] : [];
      }),
    );
    const offTeams = app.teams.onChange(() =>
      deliverInOrder(() => [{ type: 'teams.changed', connections: app.teams.connections.snapshot().map(({ name, state }) => ({ name, connection: state })) }]),
    );
    // A wake is not a write: it comes from the hub, never the core bus (it must not wake anyone).
    const offWakes = app.hub.wakes.onWake((wake) =>
      deliverInOrder(async () => [
        {
          type: 'worker.woken',
          roomId: wake.roomId,
          place: wake.place,
          sessionId: wake.sessionId,
          wake: await (await app.places.get(wake.place)).read((q) => toWake(q, wake)),
        },
      ]),
    );
    // Nor is a change of reachability (a wait starting or ending, two quiet minutes).
    const offReachability = app.hub.delivery.reachability.onChange((sessionKey) =>
      deliverInOrder(async () => {
        const { place, id: sessionId } = splitPlaceKey(sessionKey);
        return (await app.places.get(place)).read(async (q): Promise<AppEvent[]> => {
          const session = await getSession(q, sessionId);
          if (!session || session.session_kind !== 'worker') return [];
          return [{ type: 'worker.reachability', roomId: session.room_id, place, sessionId, reachability: await reachabilityOf(q, app.hub.delivery, place, session) }];
        });
      }),
    );
    return () => {
      offCore();
      offSignals();
      offTeams();
      offWakes();
      offReachability();
    };
  };
  const subscribe: UiSubscribe = (listener) => {
    listeners.add(listener);
    detach ??= attach();
    return () => {
      listeners.delete(listener);
      if (listeners.size === 0 && detach) {
        detach();
        detach = null;
      }
    };
  };
  subscribersByApp.set(app, subscribe);
  settledByApp.set(app, () => queue);
  return subscribe;
}
