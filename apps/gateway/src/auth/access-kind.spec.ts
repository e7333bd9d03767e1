import { accessOf } from './access-kind';

describe('accessOf', () => {
  it.each([
    ['GET', '/v1/crm/people', 'read'],
    ['get', '/v1/crm/people/1', 'read'],
    ['HEAD', '/v1/crm/people', 'read'],
    ['OPTIONS', '/v1/crm/people', 'read'],
    ['POST', '/v1/crm/people', 'write'],
    ['PUT', '/v1/crm/people/1', 'write'],
    ['PATCH', '/v1/crm/people/1', 'write'],
    ['DELETE', '/v1/crm/people/1', 'write'],
    ['POST', '/v1/crm/people/validate', 'read'],
    ['POST', '/v1/crm/relations/validate?lang=de', 'read'],
    ['POST', '/v1/crm/people/merge/preview', 'read'],
    ['POST', '/v1/crm/invitations/import/preview', 'read'],
    ['PUT', '/v1/crm/people/validate', 'write'],
    ['DELETE', '/v1/crm/people/preview', 'write'],
    ['POST', '/v1/crm/people/validate/x', 'write'],
    ['POST', '/v1/crm/people/validate/', 'write'],
    ['POST', '/v1/crm/people?next=/validate', 'write'],
    ['POST', '/v1/crm/people/novalidate', 'write'],
    [undefined, '/v1/crm/people', 'write'],
    ['PROPFIND', '/v1/crm/people', 'write'],
  ])('%s %s is a %s', (method, url, kind) => {
    expect(accessOf(method, url)).toBe(kind);
  });
});
