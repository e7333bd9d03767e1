import { resolveRestRoute, SERVICE_MODULE, SERVICE_NAMES } from './services';

describe('resolveRestRoute', () => {
  it.each([
    ['people', 'crm-people', 'crm'],
    ['business-cards', 'crm-people', 'crm'],
    ['touchpoints', 'crm-people', 'crm'],
    ['people-settings', 'crm-people', 'crm'],
    ['ai', 'crm-people', 'crm'],
    ['companies', 'crm-companies', 'crm'],
    ['company-settings', 'crm-companies', 'crm'],
    ['events', 'events', 'events'],
    ['event-settings', 'events', 'events'],
    ['websites', 'events', 'events'],
    ['integrations', 'events', 'events'],
    ['tickets', 'bookings-invitations', 'bookings'],
    ['bookings', 'bookings-invitations', 'bookings'],
    ['invitations', 'bookings-invitations', 'bookings'],
    ['event-tickets', 'bookings-invitations', 'bookings'],
    ['tenant-info', 'tenant-info', 'tenant-info'],
  ])('/v1/crm/%s/** -> %s, module %s', (segment, service, module) => {
    for (const path of [`/v1/crm/${segment}`, `/v1/crm/${segment}/x/y?q=1`]) {
      expect(resolveRestRoute(path)).toEqual({ segment, service, module, isPublic: false });
    }
  });

  it('ignores the query string when reading the first segment', () => {
    expect(resolveRestRoute('/v1/crm/people?x=/events/')?.service).toBe('crm-people');
  });

  it.each([
    '/v1/crm/no-such-area',
    '/v1/crm/',
    '/v1/crm',
    '/v1/crm//people',
    '/v1/crmpeople',
    '/v2/crm/people',
    '/v1/crm/People',
    '/v1/crm/peop%6Ce',
    '/v1/crm/toString',
    '/v1/crm/__proto__',
    '/v1/crm/people/../admin',
    '/v1/crm/websites/public/./x',
  ])('%s is owned by no service', (path) => {
    expect(resolveRestRoute(path)).toBeNull();
  });

  it.each([
    '/v1/crm/websites/public/events/e1',
    '/v1/crm/websites/public/config?url=x',
    '/v1/crm/bookings/public',
    '/v1/crm/bookings/public/b1/confirmation?token=t',
    '/v1/crm/invitations/public/tok',
    '/v1/crm/invitations/public/tok/reject',
  ])('%s is public', (path) => {
    expect(resolveRestRoute(path)?.isPublic).toBe(true);
  });

  it.each([
    '/v1/crm/websites',
    '/v1/crm/websites/publicity',
    '/v1/crm/websites/w1/public',
    '/v1/crm/websites/%70ublic/events/e1',
    '/v1/crm/people/public',
    '/v1/crm/events/public/e1',
    '/v1/crm/tickets/public',
  ])('%s is not public', (path) => {
    expect(resolveRestRoute(path)?.isPublic).toBe(false);
  });

  it('maps every service to a module', () => {
    expect(Object.keys(SERVICE_MODULE).sort()).toEqual([...SERVICE_NAMES].sort());
  });
});
