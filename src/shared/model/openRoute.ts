// Where the desktop shell sends the window when the person clicks a notification, a tray
// entry or a menu item: a route in the renderer's own words.
import { z } from 'zod';
import { Place, RoomId, RoomNumber } from './common';

export const OpenRoute = z.union([
  z.object({ view: z.literal('needsYou') }),
  z.object({ view: z.literal('settings') }),
  z.object({ view: z.literal('room'), roomId: RoomId, place: Place.optional(), tab: z.literal('chat'), threadRoot: RoomNumber.optional(), focus: RoomNumber.optional() }),
  z.object({ view: z.literal('room'), roomId: RoomId, place: Place.optional(), tab: z.literal('board'), task: RoomNumber }),
]);

export type OpenRoute = z.infer<typeof OpenRoute>;
