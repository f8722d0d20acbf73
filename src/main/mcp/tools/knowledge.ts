// Knowledge and "Needs you" tools (mcp-tools.md §7): room memory facts and requests
// for a person's input. Agents only add; people edit, retire, answer and dismiss.
import { z } from 'zod';
import { type RememberFactInput, getRoomMemory, rememberFact } from '../../domain/knowledge/facts';
import { getHumanRequests, requestHumanInput } from '../../domain/knowledge/requests';
import { readAs, writeAs } from '../acting';
import { additive, defineTool, readOnly, roomFacade } from '../toolKit';

const content = {
  client_id: z.string().min(8).max(80).describe('Idempotency key (8–80 chars): repeating it with the same content returns the same entry.'),
  title: z.string().min(1).max(160).describe('Short title (1–160 chars).'),
  body: z.string().min(1).max(8000).describe('The content (1–8000 chars).'),
  source_message_id: z.string().optional().describe('msg_N in this room this entry comes from.'),
  source_url: z.string().max(2048).optional().describe('A link this entry comes from (≤ 2048 chars).'),
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
  description: 'The room\'s memory: goals, decisions, constraints, terms and references that people and agents recorded.',
  input: { ...roomFacade },
  annotations: readOnly,
  run: (args, env) =>
    readAs(env, args, (identity) => ({ success: true, room_id: identity.roomId, memory: getRoomMemory(env.services.store.db, identity.roomId) })),
});

export const rememberRoomFact = defineTool({
  name: 'remember_room_fact',
  description: 'Add a fact to the room\'s memory (goal, decision, constraint, term or reference). Idempotent per client_id.',
  input: {
    ...content,
    category: z.enum(['goal', 'decision', 'constraint', 'term', 'reference']).describe('What kind of fact this is.'),
    ...roomFacade,
  },
  annotations: additive,
  async run(args, env) {
    const { value } = await writeAs(env, args, (tx, identity) => rememberFact(tx, identity.roomId, identity.actor!, contentInput(args)));
    return { success: true, ...value };
  },
});

export const requestHumanInputTool = defineTool({
  name: 'request_human_input',
  description: 'Ask the person for a question, decision, approval or review. It appears in their "Needs you" queue; the answer arrives as a thread reply that mentions you.',
  input: {
    ...content,
    category: z.enum(['question', 'decision', 'approval', 'review']).describe('What you need from the person.'),
    recommendation: z.string().max(2000).optional().describe('What you recommend (≤ 2000 chars).'),
    unblocks: z.string().max(1000).optional().describe('What the answer unblocks (≤ 1000 chars).'),
    ...roomFacade,
  },
  annotations: additive,
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
  description: 'The room\'s requests for human input, newest first, with their answers.',
  input: { ...roomFacade },
  annotations: readOnly,
  run: (args, env) =>
    readAs(env, args, (identity) => ({ success: true, room_id: identity.roomId, requests: getHumanRequests(env.services.store.db, identity.roomId) })),
});
