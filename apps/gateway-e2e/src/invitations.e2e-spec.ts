import { tenantHeaders } from '@crm/testing';
import { randomUUID } from 'node:crypto';
import {
  Answer,
  BOOKING_SERVICES,
  Client,
  eventually,
  inDays,
  startIsolatedClient,
  TestTenant,
} from './client';

// Invitations IN1-IN17 through the gateway, with crm-people (a person's name and e-mail asked
// over NATS) and events (the event's copy fed over JetStream) in the same stack: create, the
// public endpoints without a key, mails, import as a job, export, tenant isolation. One stack on
// a nats-server of its own.

jest.setTimeout(120000);

let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startIsolatedClient('invitations', BOOKING_SERVICES);
  a = await client.tenant();
  b = await client.tenant();
}, 150000);
afterAll(async () => {
  await client?.stack.shutdown();
}, 30000);

async function event(t: TestTenant, title = 'Gala'): Promise<string> {
  const res = await client.rest(t, 'POST', '/events', {
    title,
    startsAt: inDays(30),
    endsAt: inDays(31),
    timeZone: 'Europe/Berlin',
    capacity: 100,
    taxRateId: 'de-standard',
  });
  if (res.status !== 201) throw new Error(`create event: ${JSON.stringify(res.body)}`);
  const eventId = res.body.data.id as string;
  // mails need the event's title and start: wait until the copy is here
  await eventually(async () => {
    const inv = await client.rest(t, 'GET', `/invitations?eventId=${eventId}`);
    expect(inv.status).toBe(200);
  }, 15000);
  return eventId;
}

/** A public call: the tenant header, no key. */
const publicCall = (t: TestTenant, method: string, p: string): Promise<Answer> =>
  client.raw(`/v1/crm${p}`, { method, headers: tenantHeaders(t.id) });

function upload(t: TestTenant, p: string, eventId: string, text: string): Promise<Answer> {
  const form = new FormData();
  form.append('eventId', eventId);
  form.append('file', new Blob([text], { type: 'text/csv' }), 'guests.csv');
  const headers: Record<string, string> = {
    ...tenantHeaders(t.id),
    Authorization: `Bearer ${t.key}`,
  };
  delete headers['Content-Type'];
  return client.raw(`/v1/crm${p}`, { method: 'POST', headers, body: form });
}

let eventId: string;
let personInvitation: { id: string; token: string };
let mailInvitation: { id: string; token: string; email: string };

it('IN7 invites a person of crm-people (name and favorite card’s e-mail) and an address; IN8 validates', async () => {
  eventId = await event(a);
  const person = await client.rest(a, 'POST', '/people', { firstname: 'Petra', lastname: 'Pohl' });
  expect(person.status).toBe(201);
  const personId = person.body.data.id;
  const card = await client.rest(a, 'POST', `/people/${personId}/business-cards`, {
    isFavorite: true,
    emails: [{ mail: 'petra.pohl@example.com' }],
  });
  expect(card.status).toBe(201);

  const forPerson = await client.rest(a, 'POST', '/invitations', { eventId, personId });
  expect(forPerson.status).toBe(201);
  expect(forPerson.body.data).toMatchObject({
    personId,
    email: 'petra.pohl@example.com',
    firstname: 'Petra',
    lastname: 'Pohl',
    status: 'created',
  });
  personInvitation = forPerson.body.data;

  const forMail = await client.rest(
    a,
    'POST',
    '/invitations',
    { eventId, email: 'gast@example.com', firstname: 'Gisela' },
    { 'Accept-Language': 'de' },
  );
  expect(forMail.status).toBe(201);
  expect(forMail.body.data.language).toBe('de');
  mailInvitation = forMail.body.data;

  const twice = await client.rest(a, 'POST', '/invitations', {
    eventId,
    email: 'GAST@example.com',
  });
  expect(twice.status).toBe(409);
  const unknown = await client.rest(a, 'POST', '/invitations', { eventId, personId: randomUUID() });
  expect(unknown.status).toBe(400);
  expect(unknown.body.errors[0]).toMatchObject({ field: 'personId', rule: 'unknownPerson' });
  const both = await client.rest(a, 'POST', '/invitations/validate', {
    eventId,
    personId,
    email: 'x@example.com',
  });
  expect(both.body.data).toMatchObject({ valid: false, errors: [{ field: 'personId' }] });
});

it('IN3, IN4, IN12, IN16 list, read, information and status', async () => {
  const list = await client.rest(a, 'GET', `/invitations?eventId=${eventId}&q=gisela`);
  expect(list.body.data.map((i: { id: string }) => i.id)).toEqual([mailInvitation.id]);
  const info = await client.rest(
    a,
    'PUT',
    `/invitations/${mailInvitation.id}/invitee-information`,
    {
      seat: 'A1',
    },
  );
  expect(info.status).toBe(200);
  const read = await client.rest(a, 'GET', `/invitations/${mailInvitation.id}`);
  expect(read.body.data.inviteeInformation).toEqual({ seat: 'A1' });
  const big = await client.rest(a, 'PUT', `/invitations/${mailInvitation.id}/invitee-information`, {
    x: 'y'.repeat(17_000),
  });
  expect(big.status).toBe(413);
  const bad = await client.rest(a, 'PUT', '/invitations/status', {
    ids: [mailInvitation.id],
    status: 'accepted',
  });
  expect(bad.status).toBe(409);
});

it('IN9, IN10, IN11, IN17 queue mails in the invitee’s language and show their status', async () => {
  const res = await client.rest(a, 'POST', '/invitations/mails', { ids: [mailInvitation.id] });
  expect(res.status).toBe(202);
  expect(res.body.data.queued).toBe(1);
  const mails = await client.rest(a, 'GET', `/invitations/${mailInvitation.id}/mails`);
  expect(mails.body.data).toEqual([
    expect.objectContaining({ kind: 'invitation', subject: 'Einladung: Gala', language: 'de' }),
  ]);
  const filtered = await client.rest(a, 'POST', '/invitations/mails/filtered', {
    eventId,
    status: 'created',
  });
  expect(filtered.body.data.invitationIds).toEqual([personInvitation.id]);
  const free = await client.rest(a, 'POST', '/invitations/mails/free-text', {
    ids: [personInvitation.id],
    subject: 'Parking',
    text: 'Gate 2',
  });
  expect(free.status).toBe(202);
  const read = await client.rest(a, 'GET', `/invitations/${mailInvitation.id}`);
  expect(read.body.data.status).toBe('sent');
});

it('IN1, IN2 public details and reject without a key; another tenant’s token is a 404', async () => {
  const shown = await publicCall(a, 'GET', `/invitations/public/${mailInvitation.token}`);
  expect(shown.status).toBe(200);
  expect(shown.body.data).toMatchObject({
    event: { id: eventId, title: 'Gala', timeZone: 'Europe/Berlin' },
    firstname: 'Gisela',
    status: 'sent',
    booked: false,
  });
  expect(JSON.stringify(shown.body)).not.toContain('gast@example.com');
  expect((await publicCall(b, 'GET', `/invitations/public/${mailInvitation.token}`)).status).toBe(
    404,
  );
  expect(
    (await publicCall(b, 'POST', `/invitations/public/${mailInvitation.token}/reject`)).status,
  ).toBe(404);
  expect((await publicCall(a, 'GET', `/invitations/public/${'z'.repeat(22)}`)).status).toBe(404);

  const rejected = await publicCall(
    a,
    'POST',
    `/invitations/public/${mailInvitation.token}/reject`,
  );
  expect(rejected.status).toBe(200);
  expect(rejected.body.data.status).toBe('rejected');
  const again = await publicCall(a, 'POST', `/invitations/public/${mailInvitation.token}/reject`);
  expect(again.status).toBe(200);
  expect(again.body.data.respondedAt).toBe(rejected.body.data.respondedAt);
  // the admin routes are not public
  const noKey = await publicCall(a, 'GET', `/invitations/${mailInvitation.id}`);
  expect(noKey.status).toBe(401);
});

it('IN13, IN14 preview and import as a job; a second upload invites nobody twice; IN15 export', async () => {
  const file = 'E-Mail;Vorname\nimp1@example.com;Ida\nimp2@example.com;Ivo\nkaputt;X\n';
  const preview = await upload(a, '/invitations/import/preview', eventId, file);
  expect(preview.status).toBe(200);
  expect(preview.body.data).toMatchObject({ totalRows: 3, validRows: 2 });
  expect(preview.body.data.errors).toEqual([expect.objectContaining({ row: 4 })]);

  const started = await upload(a, '/invitations/import', eventId, file);
  expect(started.status).toBe(202);
  const jobPath = `/invitations/import/${started.body.data.jobId}`;
  await eventually(async () => {
    const job = await client.rest(a, 'GET', jobPath);
    expect(job.body.data).toMatchObject({ status: 'done', created: 2, failed: 1, progress: 100 });
  }, 30000);
  expect((await client.rest(b, 'GET', jobPath)).status).toBe(404);

  const second = await upload(a, '/invitations/import', eventId, file);
  await eventually(async () => {
    const job = await client.rest(a, 'GET', `/invitations/import/${second.body.data.jobId}`);
    expect(job.body.data).toMatchObject({ status: 'done', created: 0, skipped: 2 });
  }, 30000);

  const exp = await client.raw(`/v1/crm/invitations/export?eventId=${eventId}&format=csv`, {
    headers: { ...tenantHeaders(a.id), Authorization: `Bearer ${a.key}` },
  });
  expect(exp.status).toBe(200);
  const lines = String(exp.body).trim().split(/\r?\n/);
  expect(lines).toHaveLength(1 + 4); // header, two invited by hand, two imported
  expect(String(exp.body)).toContain('imp2@example.com');
  const foreign = await client.rest(b, 'GET', `/invitations/export?eventId=${eventId}`);
  expect(foreign.status).toBe(404);
  const foreignUpload = await upload(b, '/invitations/import', eventId, file);
  expect(foreignUpload.status).toBe(404);
  const big = await upload(
    a,
    '/invitations/import',
    eventId,
    'email\n' + 'a@b.de\n'.repeat(1_600_000),
  );
  expect(big.status).toBe(413);
});

it('keeps every route of another tenant’s invitation a 404; IN5, IN6 delete', async () => {
  const id = personInvitation.id;
  for (const [method, p, body] of [
    ['GET', `/invitations/${id}`],
    ['PUT', `/invitations/${id}/invitee-information`, { a: 1 }],
    ['GET', `/invitations/${id}/mails`],
    ['PUT', '/invitations/status', { ids: [id], status: 'withdrawn' }],
    ['POST', '/invitations/mails', { ids: [id] }],
    ['POST', '/invitations/mails/free-text', { ids: [id], subject: 's', text: 't' }],
    ['POST', '/invitations/mails/filtered', { eventId }],
    ['POST', '/invitations', { eventId, email: 'intruder@example.com' }],
    ['DELETE', '/invitations/batch', { ids: [id] }],
    ['DELETE', `/invitations/${id}`],
  ] as [string, string, unknown?][]) {
    const res = await client.rest(b, method, p, body);
    expect([method, p, res.status]).toEqual([method, p, 404]);
  }
  const listed = await client.rest(b, 'GET', `/invitations?eventId=${eventId}`);
  expect(listed.body.metaData.totalResults).toBe(0);
  const gql = await client.graphql(b, `query($id: ID!) { invitation(id: $id) { id } }`, { id });
  expect(gql.body.errors[0].extensions.statusCode).toBe(404);

  const mine = await client.graphql(
    a,
    `query($id: ID!) { invitation(id: $id) { id status event { id } person { id } } }`,
    { id },
  );
  expect(mine.body.data.invitation).toMatchObject({ id, event: { id: eventId } });

  const del = await client.rest(a, 'DELETE', `/invitations/${id}`);
  expect(del.status).toBe(200);
  const rest = await client.rest(a, 'GET', `/invitations?eventId=${eventId}`);
  const ids = rest.body.data.map((i: { id: string }) => i.id);
  const batch = await client.rest(a, 'DELETE', '/invitations/batch', { ids });
  expect(batch.status).toBe(200);
  expect(
    (await client.rest(a, 'GET', `/invitations?eventId=${eventId}`)).body.metaData.totalResults,
  ).toBe(0);
});
