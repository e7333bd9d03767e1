import { ROUTER_OPTIONS } from './bootstrap';
import { CrmHttpAdapter, deeperThan, MAX_JSON_DEPTH } from './http-adapter';

const nested = (levels: number): unknown => {
  let v: unknown = 1;
  for (let i = 0; i < levels; i++) v = i % 2 ? [v] : { a: v };
  return v;
};

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
