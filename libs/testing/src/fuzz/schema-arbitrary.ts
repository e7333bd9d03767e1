import fc from 'fast-check';

/**
 * The part of an OpenAPI 3.0 schema object the probe reads (what @nestjs/swagger writes).
 * Anything else in a schema is ignored.
 */
export interface JsonSchema {
  $ref?: string;
  type?: string;
  format?: string;
  nullable?: boolean;
  readOnly?: boolean;
  enum?: unknown[];
  allOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  anyOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
}

/** Where `$ref`s point: `#/components/schemas/<Name>`. */
export interface SchemaComponents {
  components?: { schemas?: Record<string, JsonSchema> };
}

export interface SchemaArbitraryOptions {
  /** Values for `format: uuid` fields: ids the probe knows (its own, another tenant's). */
  uuid?: fc.Arbitrary<string>;
  /** Deeper than this, objects and arrays are left out (recursive schemas stay finite). */
  maxDepth?: number;
  /** Longest array generated from a schema (a maxItems of 1000 does not mean 1000 items). */
  maxArrayLength?: number;
}

function resolve(schema: JsonSchema, doc: SchemaComponents, seen = 0): JsonSchema {
  if (!schema.$ref) return schema;
  if (seen > 20) throw new Error(`$ref cycle at ${schema.$ref}`);
  const name = schema.$ref.replace(/^#\/components\/schemas\//, '');
  const target = doc.components?.schemas?.[name];
  if (!target) throw new Error(`unknown schema ${schema.$ref}`);
  return resolve(target, doc, seen + 1);
}

/** `allOf` as one schema: properties and required lists merged, the outer `nullable` kept. */
function flatten(schema: JsonSchema, doc: SchemaComponents): JsonSchema {
  const s = resolve(schema, doc);
  if (!s.allOf?.length) return s;
  const parts = s.allOf.map((p) => flatten(p, doc));
  const merged: JsonSchema = { ...s, allOf: undefined };
  for (const p of parts) {
    merged.type ??= p.type;
    merged.properties = { ...p.properties, ...merged.properties };
    merged.required = [...(merged.required ?? []), ...(p.required ?? [])];
    for (const k of ['enum', 'format', 'items', 'minLength', 'maxLength'] as const) {
      if (merged[k] === undefined && p[k] !== undefined)
        (merged as Record<string, unknown>)[k] = p[k];
    }
  }
  return merged;
}

const DATE_MIN = new Date('1900-01-01T00:00:00Z');
const DATE_MAX = new Date('2100-12-31T23:59:59Z');

function stringArbitrary(s: JsonSchema, opts: SchemaArbitraryOptions): fc.Arbitrary<string> {
  switch (s.format) {
    case 'uuid':
      return opts.uuid ? fc.oneof(opts.uuid, fc.uuid()) : fc.uuid();
    case 'date-time':
      return fc
        .date({ min: DATE_MIN, max: DATE_MAX, noInvalidDate: true })
        .map((d) => d.toISOString());
    case 'date':
      return fc
        .date({ min: DATE_MIN, max: DATE_MAX, noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'email':
      return fc.emailAddress();
    case 'uri':
      return fc.webUrl();
  }
  const minLength = s.minLength ?? 0;
  const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 40, 40));
  // a grapheme may be several code points: cut to maxLength code points, as the validators count
  return fc
    .oneof(
      fc.string({ minLength, maxLength }),
      fc.string({ minLength, maxLength, unit: 'grapheme' }),
    )
    .map((t) => [...t].slice(0, maxLength).join(''));
}

/**
 * An arbitrary of values that have the shape `schema` describes (types, required fields, enums,
 * formats, bounds): what a well-behaved client could send. They need not be valid for the domain
 * (a random uuid names nothing), which is the point of probing with them.
 */
export function schemaArbitrary(
  schema: JsonSchema,
  doc: SchemaComponents,
  opts: SchemaArbitraryOptions = {},
  depth = 0,
): fc.Arbitrary<unknown> {
  const s = flatten(schema, doc);
  const maxDepth = opts.maxDepth ?? 6;
  let arb: fc.Arbitrary<unknown>;
  if (s.oneOf?.length || s.anyOf?.length) {
    arb = fc.oneof(...(s.oneOf ?? s.anyOf ?? []).map((x) => schemaArbitrary(x, doc, opts, depth)));
  } else if (s.enum?.length) {
    arb = fc.constantFrom(...s.enum);
  } else if (s.type === 'string') {
    arb = stringArbitrary(s, opts);
  } else if (s.type === 'integer') {
    arb = fc.integer({ min: s.minimum ?? -1_000_000, max: s.maximum ?? 1_000_000 });
  } else if (s.type === 'number') {
    arb = fc.oneof(
      fc.integer({ min: s.minimum ?? -1_000_000, max: s.maximum ?? 1_000_000 }),
      fc.double({ min: s.minimum ?? -1e6, max: s.maximum ?? 1e6, noNaN: true }),
    );
  } else if (s.type === 'boolean') {
    arb = fc.boolean();
  } else if (s.type === 'array' || s.items) {
    if (depth >= maxDepth) return fc.constant([]);
    const minLength = s.minItems ?? 0;
    const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 4, opts.maxArrayLength ?? 4));
    arb = fc.array(schemaArbitrary(s.items ?? {}, doc, opts, depth + 1), {
      minLength,
      maxLength,
    });
  } else if (s.properties) {
    if (depth >= maxDepth) return fc.constant({});
    const writable = Object.entries(s.properties).filter(([, p]) => !resolve(p, doc).readOnly);
    const required = (s.required ?? []).filter((k) => writable.some(([w]) => w === k));
    arb = fc.record(
      Object.fromEntries(writable.map(([k, p]) => [k, schemaArbitrary(p, doc, opts, depth + 1)])),
      { requiredKeys: required },
    );
  } else {
    // No usable description (e.g. `type: object` alone): any small JSON value.
    arb = fc.oneof(fc.constant({}), fc.integer(), fc.string({ maxLength: 10 }), fc.boolean());
  }
  return s.nullable ? fc.option(arb, { nil: null, freq: 6 }) : arb;
}

/** Builds an object with an own, enumerable key (also `__proto__`), as JSON.parse would. */
export function withOwnKey(target: object, key: string, value: unknown): object {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    configurable: true,
    writable: true,
  });
  return target;
}

/** Values no field of this API accepts everywhere: wrong types, extremes, hostile texts. */
export function hostileValue(extraStrings: string[] = []): fc.Arbitrary<unknown> {
  const nested = (levels: number, leaf: unknown): unknown => {
    let v = leaf;
    for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v };
    return v;
  };
  return fc.oneof(
    fc.constantFrom<unknown>(
      null,
      '',
      ' ',
      true,
      false,
      0,
      -1,
      1.5,
      1e308,
      -1e308,
      Number.MAX_SAFE_INTEGER + 2,
      {},
      [],
      [null],
      'null',
      'undefined',
      'NaN',
      'Infinity',
      '1e999',
      '-0',
      'true',
      '\u0000',
      'a\u0000b',
      '\ud800',
      '\udfff\ud800',
      '\ufeff',
      '🦄'.repeat(60),
      '\'; DROP TABLE "Person"; --',
      '" OR 1=1 --',
      '\\',
      '%',
      '_%\\',
      '${jndi:ldap://x}',
      '<script>alert(1)</script>',
      '../../etc/passwd',
      'not-a-uuid',
      '00000000-0000-0000-0000-000000000000',
      'ffffffff-ffff-ffff-ffff-ffffffffffff',
      '2026-02-30T00:00:00Z',
      '0000-01-01T00:00:00Z',
      '+275760-09-13T00:00:00.000Z',
      '-271821-04-20T00:00:00.000Z',
      '2026-01-01T25:61:61Z',
      '1970-01-01T00:00:00+99:99',
      '#GGGGGG',
      'x'.repeat(201),
      'x'.repeat(10_001),
      nested(30, 1),
      nested(40, 'deep'),
      Array.from({ length: 2000 }, () => 'x'),
      Array.from({ length: 1500 }, (_, i) => ({ id: `${i}` })),
      withOwnKey({}, '__proto__', { polluted: true }),
      withOwnKey({}, 'constructor', { prototype: { polluted: true } }),
      ...extraStrings,
    ),
    fc.string({ maxLength: 30, unit: 'binary' }),
    fc.integer(),
    fc.double(),
    fc.string({ minLength: 1000, maxLength: 5000 }),
  );
}

/** Keys a client should not be able to set or that prototype pollution uses. */
const HOSTILE_KEYS = [
  '__proto__',
  'constructor',
  'prototype',
  'toString',
  'hasOwnProperty',
  'valueOf',
  'id',
  'tenantId',
  'createdBy',
  'dateCreated',
  'unknownField',
  '',
  '$where',
  'a.b',
];

/**
 * A copy of `value` with one node replaced by `replacement` or, where the node is an object,
 * a hostile key added: `choices` pick the path (each number indexes the keys or items at its
 * level), `addKey` whether to add a key instead of replacing the node.
 */
export function mutateAt(
  value: unknown,
  choices: number[],
  replacement: unknown,
  addKey: number | null,
): unknown {
  const clone = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.slice();
    if (v && typeof v === 'object') {
      const out = {};
      for (const k of Object.keys(v)) withOwnKey(out, k, (v as Record<string, unknown>)[k]);
      return out;
    }
    return v;
  };
  const root = clone(value);
  let node = root;
  for (const c of choices) {
    if (!node || typeof node !== 'object') break;
    const keys = Object.keys(node);
    if (!keys.length) break;
    const key = keys[c % keys.length];
    const child = (node as Record<string, unknown>)[key];
    if (!child || typeof child !== 'object') {
      if (addKey === null) withOwnKey(node, key, replacement);
      else break;
      return root;
    }
    const copy = clone(child);
    withOwnKey(node, key, copy);
    node = copy;
  }
  if (node && typeof node === 'object' && !Array.isArray(node) && addKey !== null) {
    withOwnKey(node, HOSTILE_KEYS[addKey % HOSTILE_KEYS.length], replacement);
    return root;
  }
  if (node === root) return replacement;
  if (node && typeof node === 'object') {
    const keys = Object.keys(node);
    if (keys.length) withOwnKey(node, keys[0], replacement);
    else if (Array.isArray(node)) node.push(replacement);
  }
  return root;
}

/** Valid-shaped values with one part made hostile (a wrong type, an extreme, an extra key). */
export function mutatedArbitrary(
  valid: fc.Arbitrary<unknown>,
  hostile: fc.Arbitrary<unknown>,
): fc.Arbitrary<unknown> {
  return fc
    .tuple(
      valid,
      fc.array(fc.nat(), { maxLength: 4 }),
      hostile,
      fc.option(fc.nat(), { nil: null, freq: 2 }),
    )
    .map(([v, path, h, addKey]) => mutateAt(v, path, h, addKey));
}
