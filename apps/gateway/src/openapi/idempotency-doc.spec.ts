import type { OpenAPIObject } from '@nestjs/swagger';
import { withIdempotencyKeys } from './idempotency-doc';

const op = () => ({ responses: {} });

describe('withIdempotencyKeys', () => {
  it('documents the header on keyed POSTs only, once, as one shared parameter', () => {
    const doc = withIdempotencyKeys({
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/v1/crm/people': { post: op(), get: op() },
        '/v1/crm/bookings/public/{eventId}': { post: op() },
        '/v1/admin/tenants': { post: op() },
        '/v1/crm/companies/batch': {
          post: { ...op(), parameters: [{ name: 'Idempotency-Key', in: 'header' }] },
        },
      },
    } as OpenAPIObject);
    const ref = { $ref: '#/components/parameters/IdempotencyKey' };
    expect(doc.paths['/v1/crm/people'].post!.parameters).toEqual([ref]);
    expect(doc.paths['/v1/crm/people'].get!.parameters).toBeUndefined();
    expect(doc.paths['/v1/crm/bookings/public/{eventId}'].post!.parameters).toBeUndefined();
    expect(doc.paths['/v1/admin/tenants'].post!.parameters).toBeUndefined();
    expect(doc.paths['/v1/crm/companies/batch'].post!.parameters).toHaveLength(1);
    expect(doc.components!.parameters!.IdempotencyKey).toMatchObject({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
    });
    // applied twice (a cached document): nothing doubles
    withIdempotencyKeys(doc);
    expect(doc.paths['/v1/crm/people'].post!.parameters).toEqual([ref]);
  });
});
