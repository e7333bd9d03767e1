import { tenantHeaders } from '@crm/testing';
import { startBookingsInvitations, RunningService } from './test/service-harness';

// The skeleton boots for real: migrations applied, NATS connected, the envelope on every answer.
let svc: RunningService;
beforeAll(async () => {
  svc = await startBookingsInvitations('bookings_invitations_it_health');
});
afterAll(async () => svc?.app.close());

it('is ready once its database answers', async () => {
  const res = await fetch(`${svc.url}/health/ready`);
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({ data: { checks: { database: 'up' } }, statusCode: 200 });
});

it('answers an unknown operation with the 404 envelope', async () => {
  const res = await fetch(`${svc.url}/v1/crm/no-such-thing`, { headers: tenantHeaders('t1') });
  expect(res.status).toBe(404);
  expect(await res.json()).toMatchObject({ data: null, statusCode: 404 });
});
