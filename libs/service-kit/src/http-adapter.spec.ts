import { ROUTER_OPTIONS } from './bootstrap';
import {
  CrmHttpAdapter,
  deeperThan,
  longListAt,
  MAX_JSON_DEPTH,
  MAX_JSON_ITEMS,
  loneSurrogateAt,
  nulCharacterAt,
} from './http-adapter';

const nested = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

describe('longListAt', () => {
  const list = (n: number) => Array.from({ length: n }, (_, i) => i);

  it('names the first list longer than the limit, anywhere in the body', () => {
    expect(longListAt(list(MAX_JSON_ITEMS), MAX_JSON_ITEMS)).toBeUndefined();
    expect(longListAt(list(MAX_JSON_ITEMS + 1), MAX_JSON_ITEMS)).toBe('body');
    expect(longListAt({ orgaTags: list(3) }, 2)).toBe('orgaTags');
    expect(longListAt([{ a: 1 }, { cards: [{ emails: list(3) }] }], 2)).toBe('[1].cards[0].emails');
    expect(longListAt({ a: { b: list(2) }, c: 'x'.repeat(10) }, 2)).toBeUndefined();
  });
});

describe('deeperThan', () => {
  it('counts objects and arrays as levels, scalars not', () => {
    expect(deeperThan(1, 1)).toBe(false);
    expect(deeperThan({ a: 1 }, 1)).toBe(false);
    expect(deeperThan({ a: [1] }, 1)).toBe(true);
    expect(deeperThan(nested(MAX_JSON_DEPTH), MAX_JSON_DEPTH)).toBe(false);
    expect(deeperThan(nested(MAX_JSON_DEPTH + 1), MAX_JSON_DEPTH)).toBe(true);
  });

  it('walks 100,000 levels without recursion', () => {
    expect(deeperThan(nested(100_000), MAX_JSON_DEPTH)).toBe(true);
  });

  it('looks at every branch, not only the first', () => {
    expect(deeperThan([1, { a: 1 }, [[[[1]]]]], 4)).toBe(true);
    expect(deeperThan([1, { a: 1 }, [[[1]]]], 4)).toBe(false);
  });
});

describe('CrmHttpAdapter framework errors', () => {
  it("hands the router's own refusals (bad percent-encoding, over-long parameter) to the app's replier", async () => {
    const adapter = new CrmHttpAdapter({ routerOptions: ROUTER_OPTIONS });
    const fastify = adapter.getInstance();
    fastify.get('/things/:id', async () => 'ok');
    const seen: string[] = [];
    adapter.useErrorReplier((err, _req, reply) => {
      seen.push((err as Error & { code: string }).code);
      void reply.status(400).send({ envelope: true });
    });
    for (const url of ['/things/%zz', `/things/${'x'.repeat(ROUTER_OPTIONS.maxParamLength + 1)}`]) {
      const res = await fastify.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ envelope: true });
    }
    expect(seen).toEqual(['FST_ERR_BAD_URL', 'FST_ERR_MAX_PARAM_LENGTH']);
    expect((await fastify.inject({ method: 'GET', url: '/things/1' })).body).toBe('ok');
    await fastify.close();
  });
});

describe('nulCharacterAt', () => {
  it('names the first text holding U+0000 (PostgreSQL cannot store it: it answered 500)', () => {
    expect(nulCharacterAt({ note: 'a\u0000b' })).toBe('note');
    expect(nulCharacterAt({ tags: [{ text: 'ok' }, { text: '\u0000' }] })).toBe('tags[1].text');
    expect(nulCharacterAt([{ a: 1 }, { b: 'x\u0000' }])).toBe('[1].b');
    expect(nulCharacterAt({ ['k\u0000']: 1 })).toBe('body');
    expect(nulCharacterAt('\u0000', 'q')).toBe('q');
    expect(nulCharacterAt(['a', '\u0000'], 'q')).toBe('q[1]');
  });

  it('passes texts without it, other control characters included', () => {
    expect(nulCharacterAt({ note: 'a\u0001\ud800 ü', n: 0, x: null, l: [true] })).toBeUndefined();
    expect(nulCharacterAt('plain', 'q')).toBeUndefined();
  });
});

describe('loneSurrogateAt', () => {
  it('names the first text or key holding half a surrogate pair (jsonb refused it: a 500)', () => {
    expect(loneSurrogateAt({ a: 'x\ud800' })).toBe('a');
    expect(loneSurrogateAt({ a: [{ b: 'ok' }, { b: '\udc00y' }] })).toBe('a[1].b');
    expect(loneSurrogateAt({ ['k\ud800']: 1 })).toBe('body');
    expect(loneSurrogateAt('\udbff', 'q')).toBe('q');
  });

  it('passes whole pairs and other text', () => {
    expect(loneSurrogateAt({ a: '🦄 \ud83e\udd84 ü', n: 1, x: null })).toBeUndefined();
  });
});

describe('CrmHttpAdapter NUL characters', () => {
  it('refuses U+0000 in a JSON body, a query or a path parameter before the handler runs', async () => {
    const adapter = new CrmHttpAdapter({ routerOptions: ROUTER_OPTIONS });
    adapter.registerParserMiddleware();
    const fastify = adapter.getInstance();
    const handled: string[] = [];
    fastify.setErrorHandler((err, _req, reply) => {
      const e = err as unknown as { problems?: { field: string; rule: string }[] };
      void reply.status(400).send(e.problems);
    });
    fastify.post('/things/:id', async (req) => {
      handled.push(req.url);
      return 'ok';
    });
    const post = (url: string, payload: string) =>
      fastify.inject({
        method: 'POST',
        url,
        payload,
        headers: { 'content-type': 'application/json' },
      });
    const refused = [
      await post('/things/1', '{"note":"a\\u0000b"}'),
      await post('/things/1?q=%00', '{}'),
      await post('/things/a%00b', '{}'),
      await post('/things/1', '{"data":{"a":"\\ud800"}}'),
    ];
    expect(refused.map((r) => [r.statusCode, r.json()])).toEqual([
      [400, [{ field: 'note', rule: 'noNulCharacter', args: {} }]],
      [400, [{ field: 'q', rule: 'noNulCharacter', args: {} }]],
      [400, [{ field: 'id', rule: 'noNulCharacter', args: {} }]],
      [400, [{ field: 'data.a', rule: 'wellFormedText', args: {} }]],
    ]);
    expect(handled).toEqual([]);
    expect((await post('/things/1?q=x', '{"note":"fine"}')).body).toBe('ok');
    await fastify.close();
  });
});

describe('CrmHttpAdapter long lists', () => {
  it('refuses a JSON body holding a list longer than any the API takes, before the handler runs', async () => {
    const adapter = new CrmHttpAdapter({ routerOptions: ROUTER_OPTIONS });
    adapter.registerParserMiddleware();
    const fastify = adapter.getInstance();
    const handled: number[] = [];
    fastify.setErrorHandler((err, _req, reply) => {
      const e = err as unknown as { problems?: { field: string; rule: string }[] };
      void reply.status(400).send(e.problems);
    });
    fastify.post('/things', async (req) => {
      handled.push((req.body as { tags: unknown[] }).tags.length);
      return 'ok';
    });
    const post = (tags: number) =>
      fastify.inject({
        method: 'POST',
        url: '/things',
        payload: JSON.stringify({ tags: Array.from({ length: tags }, () => ({ text: 't' })) }),
        headers: { 'content-type': 'application/json' },
      });
    const refused = await post(MAX_JSON_ITEMS + 1);
    expect([refused.statusCode, refused.json()]).toEqual([
      400,
      [{ field: 'tags', rule: 'arrayMaxSize', args: { constraint1: MAX_JSON_ITEMS } }],
    ]);
    expect((await post(MAX_JSON_ITEMS)).body).toBe('ok');
    expect(handled).toEqual([MAX_JSON_ITEMS]);
    await fastify.close();
  });
});
