// Knowledge and "Needs you" tools (mcp-tools.md §7): room memory facts and requests
// for a person's input. Agents only add; people edit, retire, answer and dismiss.
import { z } from 'zod';
import { type RememberFactInput, getRoomMemory, rememberFact } from '../../domain/knowledge/facts';
import { getHumanRequests, requestHumanInput } from '../../domain/knowledge/requests';
import { readAs, writeAs } from '../acting';
import { objectResult } from '../outputSchemas';
import { defineTool, idempotentWrite, readOnly, roomFacade, sessionFacade } from '../toolKit';

const content = {
  client_id: z.string().min(8).max(80).describe('Idempotency key.'),
  title: z.string().min(1).max(160),
  body: z.string().min(1).max(8000),
  source_message_id: z.string().optional().describe('msg_N it comes from.'),
  source_url: z.string().max(2048).optional(),
};

type ContentArgs = z.infer<z.ZodObject<typeof content>> & { category: string };

/** The shared arguments as the domain takes them; absent optional ones become null. */
function contentInput(args: ContentArgs): RememberFactInput {
  return {
    clientId: args.client_id,
    title: args.title,
    body: args.body,
    category: args.category,
    sourceMessageId: args.source_message_id ?? null,
    sourceUrl: args.source_url ?? null,
  };
}

export const getRoomMemoryTool = defineTool({
  name: 'get_room_memory',
  title: 'Room memory',
  description: "The room's recorded facts, by category.",
  input: { ...roomFacade },
  output: objectResult,
  annotations: readOnly,
  run: (args, env) =>
    readAs(env, args, async (identity, q) => ({ success: true, room_id: identity.roomId, memory: await getRoomMemory(q, identity.roomId) })),
});

export const rememberRoomFact = defineTool({
  name: 'remember_room_fact',
  title: 'Remember fact',
  description: 'Add a fact to the room\'s memory.',
  input: {
    ...content,
    category: z.enum(['goal', 'decision', 'constraint', 'term', 'reference']),
    ...sessionFacade,
  },
  output: objectResult,
  annotations: idempotentWrite,
  async run(args, env) {
    const { value } = await writeAs(env, args, (tx, identity) => rememberFact(tx, identity.roomId, identity.actor!, contentInput(args)));
    return { success: true, ...value };
  },
});

export const requestHumanInputTool = defineTool({
  name: 'request_human_input',
  title: 'Ask a person',
  description: 'Ask a person via their Needs you queue; the answer is a thread reply mentioning you.',
  input: {
    ...content,
    category: z.enum(['question', 'decision', 'approval', 'review']),
    recommendation: z.string().max(2000).optional(),
    unblocks: z.string().max(1000).optional(),
    ...sessionFacade,
  },
  output: objectResult,
  annotations: idempotentWrite,
  async run(args, env) {
    const { value } = await writeAs(env, args, (tx, identity) =>
      requestHumanInput(tx, identity.roomId, identity.actor!, {
        ...contentInput(args),
        recommendation: args.recommendation ?? null,
        unblocks: args.unblocks ?? null,
      }),
    );
    return { success: true, ...value };
  },
});

export const getHumanRequestsTool = defineTool({
  name: 'get_human_requests',
  title: 'Human requests',
  description: 'The room\'s requests to people, newest first, with answers.',
  input: { ...roomFacade },
  output: objectResult,
  annotations: readOnly,
  run: (args, env) =>
    readAs(env, args, async (identity, q) => ({ success: true, room_id: identity.roomId, requests: await getHumanRequests(q, identity.roomId) })),
});
