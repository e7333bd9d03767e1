import {
  hostileValue,
  JsonSchema,
  mutatedArbitrary,
  SchemaComponents,
  schemaArbitrary,
} from '@crm/testing';
import fc from 'fast-check';
import { randomUUID } from 'node:crypto';

// Requests of the bad-input probe, generated from the served OpenAPI description: every
// operation, with hostile path parameters, query parameters and bodies.

export interface OpenApiParameter {
  in: string;
  name: string;
  required?: boolean;
  schema?: JsonSchema;
}

export interface OpenApiOperation {
  parameters?: OpenApiParameter[];
  requestBody?: { content?: Record<string, { schema?: JsonSchema }> };
}

export interface OpenApiDocument extends SchemaComponents {
  paths: Record<string, Record<string, OpenApiOperation>>;
}

export interface Operation {
  method: string;
  path: string;
  op: OpenApiOperation;
  /** The gateway's own admin API (an operator's token, not a tenant's key). */
  admin: boolean;
  /** Deletes, merges or moves what its ids name: never given the probing tenant's own ids. */
  destructive: boolean;
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

export function operations(doc: OpenApiDocument): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [m, op] of Object.entries(item)) {
      if (!METHODS.includes(m)) continue;
      const method = m.toUpperCase();
      out.push({
        method,
        path,
        op,
        admin: path.startsWith('/v1/admin'),
        destructive: method === 'DELETE' || /\/(merge|move)(\/|$)/.test(path),
      });
    }
  }
  return out;
}

/** Ids of the fixtures of one tenant, by kind (person, card, company, ...). */
export type IdPool = Record<string, string[]>;

/** Which fixture a path parameter names: `{id}` under /companies is a company, and so on. */
export function idKind(path: string, name: string): string {
  const before = path.slice(0, path.indexOf(`{${name}}`));
  const last = before.split('/').filter(Boolean).pop() ?? '';
  // bookings-invitations (K, BK, ET, IN)
  if (path.includes('/waiting-list/{'))
    return name === 'token' ? 'waitingListToken' : 'waitingListEntry';
  if (path.startsWith('/v1/crm/bookings/public/events/')) return 'event';
  if (path.startsWith('/v1/crm/bookings/public/')) return 'booking';
  if (name === 'token') return 'invitationToken';
  if (name === 'jobId') return 'importJob';
  if (name === 'creditNoteId') return 'creditNote';
  if (last === 'tickets') return 'ticketType';
  if (last === 'event-tickets') return 'eventTicket';
  if (last === 'invitations') return 'invitation';
  if (last === 'bookings') return 'booking';
  // the events service (E, ES, W, I)
  if (name === 'eventId') return 'event';
  if (name === 'websiteId') return 'website';
  if (name === 'fileId') return 'eventFile';
  if (name === 'imageId')
    return before.includes('/websites/') && !before.includes('/events/')
      ? 'websiteImage'
      : 'eventImage';
  if (name === 'deliveryId') return 'webhookDelivery';
  if (name === 'entryId' && path.includes('event-settings')) return 'eventEntry';
  if (last === 'contact-person-templates') return 'template';
  if (last === 'webhooks') return 'webhook';
  if (last === 'events') return 'event';
  if (last === 'websites' || (last === 'public' && name === 'id')) return 'website';
  if (name === 'cardId') return 'card';
  if (name === 'personId') return 'person';
  if (name === 'entryId') return path.includes('company-settings') ? 'companyEntry' : 'peopleEntry';
  if (name === 'addressId')
    return path.includes('business-cards') ? 'cardAddress' : 'companyAddress';
  if (name === 'phoneId') return 'phone';
  if (name === 'emailId') return 'email';
  if (name === 'accountId') return 'bankAccount';
  if (name === 'documentId')
    return path.startsWith('/v1/crm/companies') ? 'companyDocument' : 'personDocument';
  if (name === 'relationId') {
    if (path.includes('managed-by')) return 'manager';
    return path.startsWith('/v1/crm/companies') ? 'companyRelation' : 'personRelation';
  }
  if (name === 'keyId') return 'apiKey';
  if (last === 'tenants') return 'tenant';
  if (last === 'people') return 'person';
  if (last === 'companies') return 'company';
  if (last === 'touchpoints') return 'touchpoint';
  return 'unknown';
}

/** Path segments no route of this API should take for an id (sent as they are, not encoded). */
export const RAW_SEGMENTS = [
  'not-a-uuid',
  '..',
  '.',
  '%2e%2e',
  '%00',
  '%zz',
  '%',
  '%E0%A4%A',
  '%C0%AF',
  '__proto__',
  'constructor',
  'prototype',
  "'",
  '%27%20OR%201=1--',
  '%22',
  '%5C',
  '-1',
  '0',
  '1e309',
  'NaN',
  'a%2Fb',
  '%20',
  'x'.repeat(3000),
  '00000000-0000-0000-0000-000000000000',
  'FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF',
  '{00000000-0000-4000-8000-000000000000}',
  '00000000-0000-4000-8000-00000000000g',
  '00000000-0000-4000-8000-0000000000000',
  '00000000000040008000000000000000',
  '%F0%9F%A6%84',
  'null',
  'undefined',
];

export const HOSTILE_QUERY: Record<string, string[]> = {
  page: ['-5', '0', '1.5', 'abc', '1e309', '99999999999999999999', '', '%zz', '0x10'],
  pageSize: ['999999', '0', '-1', 'x', '501', '1e3', '2147483648', ''],
  sort: [
    '__proto__',
    'constructor',
    '-__proto__',
    'toString',
    "name'",
    'name;DROP TABLE x',
    '"',
    '\\',
    '-',
    '',
    ',,,',
    'dateCreated,-name,'.repeat(60),
    'unknownField',
    '+name',
  ],
  q: [
    "'",
    '"',
    '\\',
    "\\'",
    '%',
    '_',
    "%'--",
    "' OR '1'='1",
    '\u0000',
    'x'.repeat(5000),
    '(',
    '[',
    '*',
    '.*',
    '$1',
    ':name',
    '\ud800',
    '🦄',
  ],
  after: [
    'x',
    'eyJ9',
    'x'.repeat(5000),
    '%zz',
    Buffer.from('{"__proto__":{"a":1}}').toString('base64url'),
    Buffer.from('[1,2,3]').toString('base64url'),
    Buffer.from('{"k":["\'"],"id":"not-a-uuid"}').toString('base64url'),
  ],
};

const HOSTILE_ANY_QUERY = [
  'not-a-uuid',
  '',
  "'",
  '\\',
  'x'.repeat(3000),
  '2026-13-45T00:00:00Z',
  'now',
  '-1',
  'yes',
  '2',
  'CALL',
  '__proto__',
  '\u0000',
];

/** Query strings that are hostile as a whole (prototype keys, repeated and bracketed names). */
const HOSTILE_EXTRA_QUERY = [
  '__proto__[polluted]=1',
  'constructor[prototype][polluted]=1',
  '__proto__=1',
  'page=1&page=2',
  'q[]=a&q[]=b',
  'sort[]=name',
  'pageSize[$gt]=1',
  'unknown=1',
  '%zz=1',
  '=',
  '&&&',
  'q=%',
];

export interface ProbeRequest {
  method: string;
  /** Path with query string, as sent. */
  url: string;
  /** The operation (method and path template) this request probes. */
  operation: string;
  headers: Record<string, string>;
  body?: string | Buffer;
  lang: 'en' | 'de';
  /** Built to be refused (some part is hostile): its window is checked for writes. */
  hostile: boolean;
  /** What was hostile, for the report. */
  note: string;
}

export interface GenerationContext {
  doc: OpenApiDocument;
  own: IdPool;
  foreign: IdPool;
  /** Tenant headers and key for /v1/crm; the admin token for /v1/admin. */
  tenantHeaders: Record<string, string>;
  adminToken: string;
}

interface Part<T> {
  value: T;
  hostile: boolean;
  note?: string;
}

/**
 * encodeURIComponent, except that a lone surrogate (which it refuses) is sent as the bytes of
 * its WTF-8 form: invalid UTF-8 in the URL, one more thing a server must refuse cleanly.
 */
export function encode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value]
      .map((ch) => {
        const c = ch.charCodeAt(0);
        if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff) {
          return [0xe0 | (c >> 12), 0x80 | ((c >> 6) & 0x3f), 0x80 | (c & 0x3f)]
            .map((b) => `%${b.toString(16).toUpperCase()}`)
            .join('');
        }
        return encodeURIComponent(ch);
      })
      .join('');
  }
}

const clean = <T>(value: T): Part<T> => ({ value, hostile: false });
const bad = <T>(value: T, note: string): Part<T> => ({ value, hostile: true, note });

function pathParamArb(o: Operation, p: OpenApiParameter, ctx: GenerationContext) {
  const kind = idKind(o.path, p.name);
  const own = o.admin || o.destructive ? [] : (ctx.own[kind] ?? []);
  const foreign = o.admin ? [] : (ctx.foreign[kind] ?? []);
  const options: fc.Arbitrary<Part<string>>[] = [
    fc.constantFrom(...RAW_SEGMENTS).map((s) => bad(s, `path ${p.name}=${s.slice(0, 40)}`)),
    fc.uuid().map((u) => clean(encode(u))),
    fc
      .string({ minLength: 1, maxLength: 60, unit: 'grapheme' })
      .map((s) => bad(encode(s), `path ${p.name} random text`)),
  ];
  if (p.schema?.enum?.length) {
    const values = p.schema.enum.map(String);
    // mostly a valid list or size: the hostile part is elsewhere
    return fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...values).map((v) => clean(v)) },
      { weight: 1, arbitrary: fc.oneof(...options) },
    );
  }
  if (p.name === 'domain') {
    options.push(fc.domain().map((d) => clean(encode(d))));
  }
  if (p.name === 'size') {
    options.push(fc.constantFrom('thumbnail', 'small', 'detail', 'original').map(clean));
  }
  if (foreign.length) {
    options.push(fc.constantFrom(...foreign).map((id) => bad(id, `foreign ${p.name}`)));
  }
  const weighted = options.map((arbitrary) => ({ weight: 1, arbitrary }));
  if (own.length) {
    weighted.push({ weight: 3, arbitrary: fc.constantFrom(...own).map(clean) });
  }
  return fc.oneof(...weighted);
}

function queryValueArb(p: OpenApiParameter, ctx: GenerationContext): fc.Arbitrary<Part<string>> {
  const hostile = HOSTILE_QUERY[p.name] ?? HOSTILE_ANY_QUERY;
  const valid = schemaArbitrary(p.schema ?? { type: 'string' }, ctx.doc).map((v) =>
    clean(String(v)),
  );
  return fc.oneof(
    { weight: 2, arbitrary: valid },
    {
      weight: 3,
      arbitrary: fc
        .constantFrom(...hostile)
        .map((v) => bad(v, `query ${p.name}=${v.slice(0, 30)}`)),
    },
  );
}

function queryArb(o: Operation, ctx: GenerationContext): fc.Arbitrary<Part<string>> {
  const params = (o.op.parameters ?? []).filter((p) => p.in === 'query');
  const perParam = params.map((p) =>
    fc.option(queryValueArb(p, ctx), { nil: null, freq: 2 }).map((v) => ({ p, v })),
  );
  return fc
    .tuple(
      fc.tuple(...perParam),
      fc.option(fc.constantFrom(...HOSTILE_EXTRA_QUERY), { nil: null, freq: 4 }),
    )
    .map(([values, extra]) => {
      const parts: string[] = [];
      const notes: string[] = [];
      let hostile = false;
      for (const { p, v } of values) {
        if (!v) continue;
        hostile ||= v.hostile;
        if (v.note) notes.push(v.note);
        // a few values are sent raw (bad percent encoding), the rest encoded
        const raw = v.value === '%zz' || v.value === '%';
        parts.push(`${p.name}=${raw ? v.value : encode(v.value)}`);
      }
      if (extra) {
        parts.push(extra);
        hostile = true;
        notes.push(`query ${extra}`);
      }
      return { value: parts.length ? `?${parts.join('&')}` : '', hostile, note: notes.join('; ') };
    });
}

const deepArrays = (n: number) => '['.repeat(n) + ']'.repeat(n);
const deepObjects = (n: number) => '{"a":'.repeat(n) + '1' + '}'.repeat(n);

/** Bodies that are not JSON, or JSON no operation takes, as the raw text sent. */
const RAW_BODIES: [string, string][] = [
  ['{', 'truncated object'],
  ['{"a":1', 'unterminated object'],
  ['[1,2', 'unterminated array'],
  ['nul', 'bad literal'],
  ['undefined', 'undefined'],
  ["{'a':1}", 'single quotes'],
  ['{"a":1}}', 'trailing brace'],
  ['{"a":1,}', 'trailing comma'],
  ['\u0000', 'NUL byte'],
  ['\ufeff{}', 'byte order mark'],
  ['{"a":1e999999}', 'number overflow'],
  ['1'.repeat(400), 'long number'],
  ['"text"', 'string body'],
  ['123', 'number body'],
  ['null', 'null body'],
  ['true', 'boolean body'],
  ['[]', 'empty array'],
  ['{}', 'empty object'],
  ['[{}]', 'array of empty object'],
  [' ', 'blank body'],
  ['{"__proto__":{"polluted":true}}', '__proto__ key'],
  ['{"constructor":{"prototype":{"polluted":true}}}', 'constructor.prototype key'],
  ['[{"__proto__":{"polluted":true}}]', '__proto__ in an item'],
  ['{"a":"\\ud800"}', 'lone surrogate'],
  ['{"a":"\\u0000"}', 'escaped NUL'],
  ['{"a":1,"a":2}', 'duplicate key'],
  [deepArrays(2000), '2,000 nested arrays'],
  [deepObjects(1000), '1,000 nested objects'],
  [deepArrays(33), '33 nested arrays'],
  [deepObjects(31), '31 nested objects'],
  [`[${'1,'.repeat(20_000)}1]`, 'array of 20,001 numbers'],
  [`[${'{},'.repeat(5_000)}{}]`, 'array of 5,001 objects'],
  [`{"text":"${'x'.repeat(300_000)}"}`, '300 KB string'],
  [JSON.stringify({ ids: Array.from({ length: 5000 }, () => randomUUID()) }), '5,000 ids'],
];

const CONTENT_TYPES: [string, string][] = [
  ['text/plain', 'text/plain body'],
  ['application/x-www-form-urlencoded', 'form body'],
  ['application/json; charset=utf-16', 'utf-16 charset'],
  ['application/xml', 'xml body'],
  ['multipart/form-data', 'multipart without boundary'],
  ['application/json, text/plain', 'two types'],
];

function jsonBodyArb(o: Operation, ctx: GenerationContext, schema: JsonSchema | undefined) {
  const ownIds = o.destructive ? [] : Object.values(ctx.own).flat();
  const foreignIds = Object.values(ctx.foreign).flat();
  const uuid = fc.constantFrom(...ownIds, ...foreignIds, '00000000-0000-4000-a000-000000000102');
  const valid = schemaArbitrary(schema ?? {}, ctx.doc, { uuid });
  const hostile = hostileValue(foreignIds.slice(0, 5));
  type Body = Part<{ body?: string; type?: string }>;
  const options: { weight: number; arbitrary: fc.Arbitrary<Body> }[] = [
    { weight: 3, arbitrary: valid.map((v) => clean({ body: JSON.stringify(v) })) },
    {
      weight: 6,
      arbitrary: mutatedArbitrary(valid, hostile).map((v) =>
        bad({ body: JSON.stringify(v) }, `mutated body ${JSON.stringify(v)?.slice(0, 80)}`),
      ),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(...RAW_BODIES).map(([body, note]) => bad({ body }, note)),
    },
    {
      weight: 1,
      arbitrary: fc
        .tuple(fc.constantFrom(...CONTENT_TYPES), valid)
        .map(([[type, note], v]) => bad({ body: JSON.stringify(v), type }, note)),
    },
    { weight: 1, arbitrary: fc.constant(bad({}, 'no body')) },
  ];
  return fc.oneof(...options);
}

const BOUNDARY = 'probe-boundary-7MA4YWxkTrZu0gW';
function multipart(parts: { name: string; filename?: string; type?: string; data: Buffer }[]) {
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const disposition = `form-data; name="${p.name}"${p.filename !== undefined ? `; filename="${p.filename}"` : ''}`;
    chunks.push(
      Buffer.from(
        `--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n` +
          (p.type ? `Content-Type: ${p.type}\r\n` : '') +
          '\r\n',
      ),
      p.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(chunks);
}

const PNG_HEADER = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');
const MULTIPART_TYPE = `multipart/form-data; boundary=${BOUNDARY}`;

/** Upload bodies: garbage files, wrong fields, broken multipart, JSON instead of a file. */
const UPLOAD_BODIES: [Buffer | string, string, string][] = [
  [
    multipart([{ name: 'file', filename: 'x.png', type: 'image/png', data: PNG_HEADER }]),
    MULTIPART_TYPE,
    'truncated png',
  ],
  [
    multipart([
      { name: 'file', filename: 'x.jpg', type: 'image/jpeg', data: Buffer.from('not a jpeg') },
    ]),
    MULTIPART_TYPE,
    'text as jpeg',
  ],
  [
    multipart([{ name: 'file', filename: '', data: Buffer.alloc(0) }]),
    MULTIPART_TYPE,
    'empty file',
  ],
  [
    multipart([{ name: 'other', filename: 'x.txt', data: Buffer.from('x') }]),
    MULTIPART_TYPE,
    'wrong field',
  ],
  [
    multipart([{ name: 'file', data: Buffer.from('no filename') }]),
    MULTIPART_TYPE,
    'field without file',
  ],
  [
    multipart([
      { name: 'file', filename: 'a.txt', data: Buffer.from('a') },
      { name: 'file', filename: 'b.txt', data: Buffer.from('b') },
    ]),
    MULTIPART_TYPE,
    'two files',
  ],
  [
    multipart([{ name: 'file', filename: '../../etc/passwd\u0000.txt', data: Buffer.from('x') }]),
    MULTIPART_TYPE,
    'hostile file name',
  ],
  [
    multipart([{ name: 'file', filename: `${'n'.repeat(5000)}.txt`, data: Buffer.from('x') }]),
    MULTIPART_TYPE,
    'long file name',
  ],
  [
    multipart([{ name: '__proto__', data: Buffer.from('{"polluted":true}') }]),
    MULTIPART_TYPE,
    '__proto__ field',
  ],
  [
    `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="x"\r\n\r\nunterminated`,
    MULTIPART_TYPE,
    'unterminated multipart',
  ],
  ['garbage', MULTIPART_TYPE, 'not multipart'],
  ['', MULTIPART_TYPE, 'empty multipart'],
  ['{"file":"x"}', 'application/json', 'json instead of a file'],
  ['{', 'application/json', 'bad json instead of a file'],
  [
    multipart([
      {
        name: 'file',
        filename: 'x.svg',
        type: 'image/svg+xml',
        data: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script>'.repeat(3),
        ),
      },
    ]),
    MULTIPART_TYPE,
    'broken svg with script',
  ],
];

function bodyArb(o: Operation, ctx: GenerationContext) {
  const content = o.op.requestBody?.content ?? {};
  if (content['multipart/form-data']) {
    return fc
      .constantFrom(...UPLOAD_BODIES)
      .map(([body, type, note]) => bad({ body: body as string | Buffer, type }, note));
  }
  if (content['application/json']) return jsonBodyArb(o, ctx, content['application/json'].schema);
  // no body declared: mostly none, sometimes hostile JSON anyway
  return fc.oneof(
    { weight: 5, arbitrary: fc.constant(clean<{ body?: string | Buffer; type?: string }>({})) },
    {
      weight: 1,
      arbitrary: fc
        .constantFrom(...RAW_BODIES.slice(0, 30))
        .map(([body, note]) =>
          bad<{ body?: string | Buffer; type?: string }>({ body }, `unexpected body: ${note}`),
        ),
    },
  );
}

/** All requests for one operation; `lang` de on about a third, to check translated messages. */
export function requestArbitrary(o: Operation, ctx: GenerationContext): fc.Arbitrary<ProbeRequest> {
  const pathParams = (o.op.parameters ?? []).filter((p) => p.in === 'path');
  return fc
    .record({
      path: fc.tuple(...pathParams.map((p) => pathParamArb(o, p, ctx))),
      query: queryArb(o, ctx),
      body: bodyArb(o, ctx),
      lang: fc.constantFrom<'en' | 'de'>('en', 'en', 'de'),
    })
    .map(({ path, query, body, lang }) => {
      let url = o.path;
      pathParams.forEach((p, i) => (url = url.replace(`{${p.name}}`, path[i].value)));
      const headers: Record<string, string> = o.admin
        ? { Authorization: `Bearer ${ctx.adminToken}` }
        : { ...ctx.tenantHeaders };
      delete headers['Content-Type'];
      if (body.value.body !== undefined)
        headers['Content-Type'] = body.value.type ?? 'application/json';
      else if (!o.admin && o.method !== 'GET') headers['Content-Type'] = 'application/json';
      if (lang === 'de') headers['Accept-Language'] = 'de';
      const parts = [...path, query, body];
      return {
        method: o.method,
        url: `${url}${query.value}`,
        operation: `${o.method} ${o.path}`,
        headers,
        body: body.value.body,
        lang,
        hostile: parts.some((p) => p.hostile),
        note: parts
          .map((p) => p.note)
          .filter(Boolean)
          .join('; '),
      };
    });
}
