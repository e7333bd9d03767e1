import type { OpenAPIObject } from '@nestjs/swagger';
import { mergeOpenApi } from './openapi-merge';

const doc = (
  paths: OpenAPIObject['paths'],
  schemas: Record<string, unknown> = {},
  tags: string[] = [],
) =>
  ({
    openapi: '3.0.0',
    info: { title: 't', version: '1' },
    paths,
    components: { schemas },
    tags: tags.map((name) => ({ name })),
  }) as OpenAPIObject;

const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const op = (schema: object) => ({
  responses: { '200': { description: 'ok', content: { 'application/json': { schema } } } },
});

describe('mergeOpenApi', () => {
  it("adds every service's paths, components and tags to the gateway's own", () => {
    const own = doc({ '/v1/admin/tariffs': { get: op({}) } }, { Tariff: { type: 'object' } }, [
      'Administration',
    ]);
    const merged = mergeOpenApi(own, [
      {
        service: 'crm-people',
        doc: doc(
          { '/v1/crm/people': { post: op(ref('Person')) } },
          { Person: { type: 'object' } },
          ['People'],
        ),
      },
      {
        service: 'events',
        doc: doc({ '/v1/crm/events': { get: op(ref('Event')) } }, { Event: { type: 'object' } }, [
          'Events',
          'People',
        ]),
      },
    ]);
    expect(Object.keys(merged.paths).sort()).toEqual([
      '/v1/admin/tariffs',
      '/v1/crm/events',
      '/v1/crm/people',
    ]);
    expect(Object.keys(merged.components!.schemas!).sort()).toEqual(['Event', 'Person', 'Tariff']);
    expect(merged.tags!.map((t) => t.name)).toEqual(['Administration', 'People', 'Events']);
    expect(own.paths['/v1/crm/people']).toBeUndefined(); // inputs untouched
  });

  it('keeps one copy of identical components and renames different ones, with their refs', () => {
    const address = { type: 'object', properties: { street: { type: 'string' } } };
    const page = { type: 'object', properties: { total: { type: 'integer' } } };
    const samePageOtherKeyOrder = { properties: { total: { type: 'integer' } }, type: 'object' };
    const merged = mergeOpenApi(doc({}), [
      {
        service: 'crm-people',
        doc: doc(
          { '/v1/crm/people': { get: op(ref('Address')) } },
          { Address: address, Page: page },
        ),
      },
      {
        service: 'crm-companies',
        doc: doc(
          { '/v1/crm/companies': { get: op({ type: 'array', items: ref('Address') }) } },
          {
            Address: { type: 'object', properties: { city: { type: 'string' } } },
            Page: samePageOtherKeyOrder,
            Company: { type: 'object', properties: { hq: ref('Address') } },
          },
        ),
      },
    ]);
    const schemas = merged.components!.schemas!;
    expect(schemas.Address).toEqual(address);
    expect(schemas.CrmCompaniesAddress).toEqual({
      type: 'object',
      properties: { city: { type: 'string' } },
    });
    expect(Object.keys(schemas).filter((k) => k.endsWith('Page'))).toEqual(['Page']);
    expect(schemas.Page).toEqual(page);
    const companies = merged.paths['/v1/crm/companies'].get as unknown as ReturnType<typeof op>;
    expect(companies.responses['200'].content['application/json'].schema).toEqual({
      type: 'array',
      items: ref('CrmCompaniesAddress'),
    });
    expect(schemas.Company).toEqual({
      type: 'object',
      properties: { hq: ref('CrmCompaniesAddress') },
    });
    const people = merged.paths['/v1/crm/people'].get as unknown as ReturnType<typeof op>;
    expect(people.responses['200'].content['application/json'].schema).toEqual(ref('Address'));
  });

  it('keeps the first description of an operation described twice, and says so', () => {
    const warnings: string[] = [];
    const merged = mergeOpenApi(
      doc({}),
      [
        { service: 'a', doc: doc({ '/v1/crm/x': { get: { summary: 'first', responses: {} } } }) },
        {
          service: 'b',
          doc: doc({
            '/v1/crm/x': {
              get: { summary: 'second', responses: {} },
              post: { summary: 'added', responses: {} },
            },
          }),
        },
      ],
      (m) => warnings.push(m),
    );
    expect(merged.paths['/v1/crm/x'].get!.summary).toBe('first');
    expect(merged.paths['/v1/crm/x'].post!.summary).toBe('added');
    expect(warnings).toEqual(['b: GET /v1/crm/x is described twice; kept the first']);
  });

  it('makes operationIds unique: one taken gets the service name in front', () => {
    const list = (operationId: string) => ({ get: { operationId, responses: {} } });
    const merged = mergeOpenApi(doc({ '/v1/admin/x': list('TenantsController_list') }), [
      {
        service: 'crm-people',
        doc: doc({ '/v1/crm/people/{id}/documents': list('DocumentsController_list') }),
      },
      {
        service: 'crm-companies',
        doc: doc({
          '/v1/crm/companies/{id}/documents': list('DocumentsController_list'),
          '/v1/crm/companies': list('CompaniesController_list'),
        }),
      },
      { service: 'events', doc: doc({ '/v1/crm/events/x': list('DocumentsController_list') }) },
    ]);
    const id = (path: string) => merged.paths[path].get!.operationId;
    expect(id('/v1/crm/people/{id}/documents')).toBe('DocumentsController_list');
    expect(id('/v1/crm/companies/{id}/documents')).toBe('CrmCompaniesDocumentsController_list');
    expect(id('/v1/crm/companies')).toBe('CompaniesController_list');
    expect(id('/v1/crm/events/x')).toBe('EventsDocumentsController_list');
    expect(id('/v1/admin/x')).toBe('TenantsController_list');
  });
});
