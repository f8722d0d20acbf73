// Adversarial values for the hostile-input tests: huge and malformed strings (lone
// surrogates, NUL, control characters), SQL, FTS5 and Markdown/HTML injection, path
// tricks, forged and edge-case ids, every wrong JSON type, and deeply nested JSON. Plus
// fast-check arbitraries that mix these with random values, driven by a tool's schema.
import fc from 'fast-check';

function nested(depth: number, leaf: unknown, wrap: (inner: unknown) => unknown): unknown {
  let value = leaf;
  for (let i = 0; i < depth; i++) value = wrap(value);
  return value;
}

const HUGE = 'x'.repeat(300_000);

/** Named so a failure says which value broke what. */
export const HOSTILE_VALUES: ReadonlyArray<readonly [string, unknown]> = [
  ['empty string', ''],
  ['blank', ' \t\n '],
  ['NUL', '\u0000'],
  ['NUL inside', 'task_1\u0000; DROP TABLE tasks'],
  ['lone high surrogate', '\uD800'],
  ['lone low surrogate then text', '\uDC00abc'],
  ['reversed surrogate pair', '\uDE00\uD83D'],
  ['control characters', '\u0007\u001b[31mred\u001b[0m\r'],
  ['right-to-left override', '\u202Eexe.txt'],
  ['emoji run', '🦄'.repeat(600)],
  ['huge ASCII (300 000 chars)', HUGE],
  ['huge multibyte (300 000 UTF-8 bytes)', '€'.repeat(100_000)],
  ['SQL injection', "'; DROP TABLE messages; --"],
  ['SQL tautology', "x' OR '1'='1"],
  ['SQL in id', "task_1' OR 1=1 --"],
  ['FTS5 syntax', 'NEAR(alpha beta) OR "unterminated'],
  ['FTS5 column filter', 'text: * ^sender'],
  ['script tag', '<script>alert(1)</script>'],
  ['img onerror', '<img src=x onerror=alert(1)>'],
  ['javascript link', '[click](javascript:alert(1))'],
  ['HTML entities', '&lt;b&gt;&#x3C;script&#x3E;'],
  ['path traversal', '../../../../etc/passwd'],
  ['absolute path', '/dev/null'],
  ['Windows path', 'C:\\Windows\\System32\\'],
  ['template literal', '${process.exit(1)}'],
  ['proto key', '__proto__'],
  ['constructor key', 'constructor'],
  ['JSON in string', '{"$gt":"","__proto__":{"polluted":1}}'],
  ['task_0', 'task_0'],
  ['leading zero id', 'task_01'],
  ['id past the limit', 'task_2147483648'],
  ['negative id', 'msg_-1'],
  ['fractional id', 'msg_1.5'],
  ['id with space', ' msg_1 '],
  ['wrong kind of id', 'fact_1'],
  ['unknown message', 'msg_99999999'],
  ['forged worker id', `worker_${'0'.repeat(32)}`],
  ['worker id, bad hex', `worker_${'g'.repeat(32)}`],
  ['worker id, upper case', `worker_${'A'.repeat(32)}`],
  ['forged session id', `local_${'f'.repeat(64)}`],
  ['forged legacy session id', 'local_00000000-0000-4000-8000-000000000000'],
  ['unknown room', 'room-that-does-not-exist'],
  ['invite-shaped code', 'ZZZZ-9999'],
  ['lowercase code', 'abcd-1234'],
  ['zero', 0],
  ['negative', -1],
  ['fraction', 1.5],
  ['2^31', 2 ** 31],
  ['beyond safe integer', 2 ** 53 + 1],
  ['huge number', 1e308],
  ['true', true],
  ['false', false],
  ['null', null],
  ['empty array', []],
  ['array of strings', ['a', 'b']],
  ['empty object', {}],
  ['object', { a: 1, b: 'two' }],
  ['proto pollution object', JSON.parse('{"__proto__":{"polluted":true},"constructor":{"prototype":{"polluted":true}}}')],
  ['wide object (5 000 keys)', Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`k${i}`, i]))],
  ['deep array (3 000 levels)', nested(3_000, 1, (inner) => [inner])],
  ['deep object (3 000 levels)', nested(3_000, 'leaf', (inner) => ({ a: inner }))],
];

/** Values of other JSON types than `type`, one of each kind, for a parameter's wrong-type cases. */
const WRONG_TYPE_SAMPLES = ['zero', 'true', 'null', 'empty array', 'empty object', 'deep object (3 000 levels)', 'empty string'];

/**
 * The adversarial values for one parameter: all of its own JSON type, plus a sample of
 * every other type (those all stop at the same schema check); object and array
 * parameters get everything, since their contents are validated deeper.
 */
export function hostileValuesFor(schema: PropertySchema): ReadonlyArray<readonly [string, unknown]> {
  const type = schema.enum ? 'string' : Array.isArray(schema.type) ? schema.type[0] : schema.type;
  const own = (value: unknown) =>
    type === 'string' ? typeof value === 'string' : type === 'integer' || type === 'number' ? typeof value === 'number' : type === 'boolean' ? typeof value === 'boolean' : true;
  return HOSTILE_VALUES.filter(([name, value]) => own(value) || WRONG_TYPE_SAMPLES.includes(name) || (type !== 'string' && typeof value === 'string' && name.startsWith('huge')));
}

/** Any UTF-16 code unit, lone surrogates included (what JSON can carry as \uD800 escapes). */
const anyCodeUnit = fc.integer({ min: 0, max: 0xffff }).map((u) => String.fromCharCode(u));

/** Strings that are random, hostile, or almost-valid ids. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.string({ unit: anyCodeUnit, maxLength: 80 }),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(...HOSTILE_VALUES.map(([, v]) => v).filter((v): v is string => typeof v === 'string')),
  fc.tuple(fc.constantFrom('msg_', 'task_', 'worker_', 'local_', 'fact_', 'req_'), fc.oneof(fc.nat().map(String), fc.string({ unit: fc.constantFrom(...'0123456789abcdefABCDEF'), maxLength: 64 }))).map(([p, s]) => p + s),
);

/** A JSON Schema fragment as the SDK lists it in tools/list. */
export interface PropertySchema {
  type?: string | string[];
  enum?: unknown[];
  items?: PropertySchema;
  properties?: Record<string, PropertySchema>;
  anyOf?: PropertySchema[];
}

const wrongType = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.constantFrom(...HOSTILE_VALUES.map(([, v]) => v)),
);

/** Values for one property: mostly of its own type (with hostile content), sometimes of any type. */
export function valueFor(schema: PropertySchema, depth = 0): fc.Arbitrary<unknown> {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  let own: fc.Arbitrary<unknown>;
  if (schema.enum) own = fc.constantFrom(...schema.enum, 'not-a-choice', '');
  else if (type === 'string') own = hostileString;
  else if (type === 'integer' || type === 'number') own = fc.oneof(fc.integer(), fc.integer({ min: -2, max: 300_000 }), fc.double({ noNaN: true, noDefaultInfinity: true }));
  else if (type === 'boolean') own = fc.boolean();
  else if (type === 'array') own = fc.array(schema.items && depth < 2 ? valueFor(schema.items, depth + 1) : wrongType, { maxLength: 12 });
  else if (type === 'object' && schema.properties && depth < 2) {
    own = fc.record(Object.fromEntries(Object.entries(schema.properties).map(([k, v]) => [k, valueFor(v, depth + 1)])), { requiredKeys: [] });
  } else own = wrongType;
  return fc.oneof({ arbitrary: own, weight: 4 }, { arbitrary: wrongType, weight: 1 });
}
