// delivery.*: receipts under messages, a room's meter, budget and loop-guard pause (issue 14),
// read in the room's place.
import { requireRoom } from '../../domain/rooms/rooms';
import type { ApiContext } from '../context';
import { receiptsOf, roomDelivery } from '../models/delivery';
import type { Methods } from './types';

type DeliveryMethods = Methods<'delivery.receipts' | 'delivery.room' | 'delivery.setRoomBudget'>;

export function deliveryMethods(ctx: ApiContext): DeliveryMethods {
  const { app } = ctx;
  return {
    'delivery.receipts': async ({ roomId, place: asked, numbers }) => {
      const place = await ctx.place(asked);
      return ctx.read(async (q) => {
        await requireRoom(q, roomId);
        return { receipts: await receiptsOf(app, q, { place, roomId }, numbers) };
      }, place);
    },
    'delivery.room': async ({ roomId, place: asked }) => {
      const place = await ctx.place(asked);
      return ctx.read(async (q) => {
        await requireRoom(q, roomId);
        return roomDelivery(app, q, { place, roomId });
      }, place);
    },
    'delivery.setRoomBudget': async ({ roomId, place: asked, dailyTokens }) => {
      const place = await ctx.place(asked);
      await ctx.read((q) => requireRoom(q, roomId), place);
      await app.hub.delivery.settings.setRoomBudget({ place, roomId }, dailyTokens);
      await app.hub.delivery.meter.recheck({ place, roomId });
      return ctx.read((q) => roomDelivery(app, q, { place, roomId }), place);
    },
  };
}
