// get_message_status (ours, issue 14): "did @Birch get msg_41?" — the agents a message
// routes to, when each got it (null: not yet) and whether a mention reaches each now.
import { z } from 'zod';
import { errors } from '../../domain/errors';
import { parseNumberedId } from '../../domain/ids';
import { normalizeHandle } from '../../domain/identity/handles';
import { mapInOrder } from '../../domain/inOrder';
import { getMessageRow } from '../../domain/messages/read';
import { listRoomSessions } from '../../domain/sessions/sessions';
import { reachabilityOf } from '../../delivery/reachabilityOf';
import { readAs } from '../acting';
import { messageRecipients } from '../messageStatus';
import { objectResult } from '../outputSchemas';
import { defineTool, readOnly, roomFacade } from '../toolKit';

export const getMessageStatusTool = defineTool({
  name: 'get_message_status',
  title: 'Message status',
  description: 'Who a message routes to, when each got it (null: not yet; pushed_at: pushed, unread), who listens now.',
  input: { message_id: z.string(), agent: z.string().optional().describe('Only this agent.'), ...roomFacade },
  output: objectResult,
  annotations: readOnly,
  run: (args, env) =>
    readAs(env, args, async (identity, q) => {
      const number = parseNumberedId('msg', args.message_id);
      const row = number === null ? null : await getMessageRow(q, identity.roomId, number);
      if (!row) throw errors.D1();
      const wanted = args.agent === undefined ? null : normalizeHandle(args.agent.replace(/^@/, ''));
      if (wanted !== null && !(await listRoomSessions(q, identity.roomId)).some((s) => s.session_kind === 'worker' && s.name_key === wanted)) {
        throw errors.D2(args.agent!);
      }
      const all = (await messageRecipients(env.services, q, identity, [row])).get(row.number) ?? [];
      const recipients = await mapInOrder(
        all.filter((r) => wanted === null || r.session.name_key === wanted),
        async (r) => ({
          agent: r.session.display_name,
          delivered_at: r.receipt?.at ?? null,
          ...(r.pushedAt && !r.receipt ? { pushed_at: r.pushedAt } : {}),
          reachability: await reachabilityOf(q, env.services.delivery, identity.place, r.session),
        }),
      );
      return { success: true, room_id: identity.roomId, message_id: args.message_id, recipients };
    }),
});
