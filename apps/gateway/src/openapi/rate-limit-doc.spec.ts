import type { OpenAPIObject, ResponseObject } from '@nestjs/swagger';
import { withRateLimits } from './rate-limit-doc';

const ok = () => ({ responses: { '200': { description: 'ok' }, '404': { description: 'no' } } });

describe('withRateLimits', () => {
  it('documents the 429 and the RateLimit headers on /v1/crm/** operations only, once', () => {
    const doc = withRateLimits({
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/v1/crm/people': { post: ok(), get: ok() },
        '/v1/crm/bookings/public/{eventId}': {
          post: { responses: { '201': { description: 'ok' }, '429': { description: 'own' } } },
        },
        '/v1/admin/tenants': { post: ok() },
      },
    } as OpenAPIObject);
    const header = (name: string) => ({ $ref: `#/components/headers/${name}` });
    const people = doc.paths['/v1/crm/people'].get!.responses;
    expect(people['200']).toEqual({
      description: 'ok',
      headers: { RateLimit: header('RateLimit'), 'RateLimit-Policy': header('RateLimit-Policy') },
    });
    expect(people['404']).toEqual({ description: 'no' });
    expect(people['429']).toEqual({ $ref: '#/components/responses/TooManyRequests' });
    const own = doc.paths['/v1/crm/bookings/public/{eventId}'].post!.responses['429'];
    expect(own).toMatchObject({
      description: 'own',
      headers: { 'Retry-After': header('Retry-After') },
    });
    expect(doc.paths['/v1/admin/tenants'].post!.responses['429']).toBeUndefined();
    expect(doc.components!.headers!.RateLimit).toMatchObject({ example: '"key";r=42;t=17' });
    const tooMany = doc.components!.responses!.TooManyRequests as ResponseObject;
    expect(Object.keys(tooMany.headers!)).toEqual(['Retry-After', 'RateLimit', 'RateLimit-Policy']);
    // applied twice (a cached document): nothing changes
    const before = JSON.stringify(doc);
    withRateLimits(doc);
    expect(JSON.stringify(doc)).toBe(before);
  });
});
