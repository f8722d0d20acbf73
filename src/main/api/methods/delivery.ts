// delivery.*: receipts under messages, a room's meter, budget and loop-guard pause (issue 14).
import { requireRoom } from '../../domain/rooms/rooms';
import type { ApiContext } from '../context';
import { receiptsOf, roomDelivery } from '../models/delivery';
import type { Methods } from './types';

type DeliveryMethods = Methods<'delivery.receipts' | 'delivery.room' | 'delivery.setRoomBudget'>;

export function deliveryMethods(ctx: ApiContext): DeliveryMethods {
  const { app } = ctx;
  return {
    'delivery.receipts': ({ roomId, numbers }) => {
      requireRoom(ctx.db, roomId);
      return { receipts: receiptsOf(app, ctx.db, roomId, numbers) };
    },
    'delivery.room': ({ roomId }) => {
      requireRoom(ctx.db, roomId);
      return roomDelivery(app, ctx.db, roomId);
    },
    'delivery.setRoomBudget': async ({ roomId, dailyTokens }) => {
      requireRoom(ctx.db, roomId);
      await app.hub.delivery.settings.setRoomBudget(roomId, dailyTokens);
      app.hub.delivery.meter.recheck(roomId);
      return roomDelivery(app, ctx.db, roomId);
    },
  };
}
