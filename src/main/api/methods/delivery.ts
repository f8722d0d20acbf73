// delivery.*: receipts under messages, a room's meter, budget and loop-guard pause (issue 14).
import { requireRoom } from '../../domain/rooms/rooms';
import type { ApiContext } from '../context';
import { receiptsOf, roomDelivery } from '../models/delivery';
import type { Methods } from './types';

type DeliveryMethods = Methods<'delivery.receipts' | 'delivery.room' | 'delivery.setRoomBudget'>;

export function deliveryMethods(ctx: ApiContext): DeliveryMethods {
  const { app } = ctx;
  return {
    'delivery.receipts': ({ roomId, numbers }) =>
      ctx.read(async (q) => {
        await requireRoom(q, roomId);
        return { receipts: await receiptsOf(app, q, roomId, numbers) };
      }),
    'delivery.room': ({ roomId }) =>
      ctx.read(async (q) => {
        await requireRoom(q, roomId);
        return roomDelivery(app, q, roomId);
      }),
    'delivery.setRoomBudget': async ({ roomId, dailyTokens }) => {
      await ctx.read((q) => requireRoom(q, roomId));
      await app.hub.delivery.settings.setRoomBudget(roomId, dailyTokens);
      await app.hub.delivery.meter.recheck(roomId);
      return ctx.read((q) => roomDelivery(app, q, roomId));
    },
  };
}
