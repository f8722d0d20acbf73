// Output schemas (the `outputSchema` of every tool). Every agent carries tools/list in its
// context on every turn, so they stay small: the tools of the coordination round (join,
// register, read, send, wait) type the fields an agent parses; the others declare an
// object result, documented field by field in mcp-tools.md. Nothing is `required` and
// other fields are allowed, so every result, and a soft failure {success:false, error,
// hint}, fits its schema.
import type { JsonSchema } from './jsonSchema';

const type = (name: string): JsonSchema => ({ type: name });
export const STRING = type('string');
export const ARRAY = type('array');
export const orNull = (schema: JsonSchema): JsonSchema => ({ anyOf: [schema, { type: 'null' }] });

/** An object result with these fields typed. */
export const result = (properties: Record<string, JsonSchema>): JsonSchema => ({ type: 'object', properties });

// Shared pieces.
/** A JSON object result. */
export const objectResult: JsonSchema = type('object');
/** The room response of create_room, join_code and join_room. */
export const roomResult = result({ room_id: STRING });
/** One message object, as send_message and send_thread_message return it. */
export const messageResult = result({ id: STRING });
