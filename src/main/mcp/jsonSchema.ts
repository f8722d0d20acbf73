// Tool input schemas as clients receive them: zod converted to JSON Schema in the portable
// form the MCP Inspector's --strict check asks for (a nullable field as anyOf with null,
// never a `type` array), and short, since every agent carries tools/list in its context:
// no `$schema` line, no zod safe-integer bounds, no length limit of long text (the server
// checks it and says so), a shorter listing where a field chose one (listedAs), and no
// entry for a field that is accepted but not listed (unlisted).
import { z } from 'zod';

export type JsonSchema = { [key: string]: unknown };

/** Keywords that stay on the field when a type array is split into anyOf branches. */
const ANNOTATIONS = new Set(['description', 'default', 'title', 'deprecated']);

const listings = new WeakMap<z.ZodType, JsonSchema>();
const hidden = new WeakSet<z.ZodType>();
/** Text limits from this length up are left out of the listing. */
const LONG_TEXT = 1_000;

/**
 * Lists `schema` as `json` in tools/list while calls are still checked by `schema`, for a
 * field whose full shape another tool already lists (every agent carries the list).
 */
export function listedAs<T extends z.ZodType>(schema: T, json: JsonSchema): T {
  listings.set(schema, json);
  return schema;
}

/** Accepted by calls but not listed: the server instructions name the field once for every tool. */
export function unlisted<T extends z.ZodType>(schema: T): T {
  hidden.add(schema);
  return schema;
}

export function inputJsonSchema(shape: z.ZodRawShape): JsonSchema {
  const listed = Object.fromEntries(Object.entries(shape).filter(([, field]) => !hidden.has(field as z.ZodType)));
  const converted = z.toJSONSchema(z.object(listed), {
    io: 'input',
    target: 'draft-7',
    override: ({ zodSchema, jsonSchema }) => {
      const listing = listings.get(zodSchema as unknown as z.ZodType);
      if (!listing) return;
      for (const key of Object.keys(jsonSchema)) delete (jsonSchema as JsonSchema)[key];
      Object.assign(jsonSchema, listing);
    },
  }) as JsonSchema;
  const { $schema: _ignored, ...schema } = converted;
  return portable(schema);
}

/** Rewrites every `type: [a, "null"]` into `anyOf: [{type: a, …constraints}, {type: "null"}]`. */
export function portable(node: JsonSchema): JsonSchema {
  const out: JsonSchema = {};
  for (const [key, value] of Object.entries(node)) {
    // zod states every integer's safe range; a JSON number says as much.
    if ((key === 'minimum' || key === 'maximum') && Math.abs(value as number) === Number.MAX_SAFE_INTEGER) continue;
    if (key === 'maxLength' && (value as number) >= LONG_TEXT) continue;
    out[key] = walk(value);
  }
  if (!Array.isArray(out.type)) return out;
  const types = out.type as string[];
  const kept: JsonSchema = {};
  const constraints: JsonSchema = {};
  for (const [key, value] of Object.entries(out)) {
    if (key === 'type') continue;
    (ANNOTATIONS.has(key) ? kept : constraints)[key] = value;
  }
  return { ...kept, anyOf: types.map((type) => (type === 'null' ? { type } : { type, ...constraints })) };
}

function walk(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(walk);
  if (value && typeof value === 'object') return portable(value as JsonSchema);
  return value;
}
