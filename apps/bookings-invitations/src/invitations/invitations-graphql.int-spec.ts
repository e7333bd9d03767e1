import type { TicketTestKit } from '../ticket-types/test/ticket-test-kit';
import {
  copiedEvent,
  eventually,
  PeopleStandIn,
  startInvitationKit,
} from './test/invitation-test-kit';

// The invitations' GraphQL operations against the real service: the same rules as REST, the
// federated Event and Person references, tenant isolation.

jest.setTimeout(90000);

let t: TicketTestKit;
let people: PeopleStandIn;
beforeAll(async () => {
  ({ t, people } = await startInvitationKit('bookings_invitations_it_invitations_graphql'));
}, 90000);
afterAll(async () => t?.close());

const FIELDS =
  'id token status email firstname language inviteeInformation event { id } person { id }';

it('creates, lists, reads, changes and deletes invitations; Event and Person are references', async () => {
  const eventId = await copiedEvent(t, t.A, { title: 'Gala' });
  const personId = people.person(t.A, { firstname: 'Gert' });
  const created = await t.gql(
    `mutation($input: CreateInvitationInput!) { createInvitation(input: $input) { ${FIELDS} } }`,
    { input: { eventId, personId, inviteeInformation: { table: 7 } } },
  );
  expect(created.body.errors).toBeUndefined();
  const inv = created.body.data.createInvitation;
  expect(inv).toMatchObject({
    status: 'created',
    firstname: 'Gert',
    inviteeInformation: { table: 7 },
    event: { id: eventId },
    person: { id: personId },
  });
  const byMail = await t.gql(
    `mutation($input: CreateInvitationInput!) { createInvitation(input: $input) { ${FIELDS} } }`,
    { input: { eventId, email: 'free@example.com' } },
  );
  expect(byMail.body.data.createInvitation.person).toBeNull();

  const list = await t.gql(
    `query($eventId: ID!) { invitations(eventId: $eventId, sort: "email") { totalResults items { email } } }`,
    { eventId },
  );
  expect(list.body.data.invitations.totalResults).toBe(2);

  const valid = await t.gql(
    `mutation($input: CreateInvitationInput!) { validateInvitation(input: $input) { valid errors { field message } } }`,
    { input: { eventId, email: 'free@example.com' } },
  );
  expect(valid.body.data.validateInvitation).toMatchObject({
    valid: false,
    errors: [{ field: 'email' }],
  });

  const info = await t.gql(
    `mutation($id: ID!) { setInviteeInformation(id: $id, information: { diet: "vegan" }) { inviteeInformation } }`,
    { id: inv.id },
  );
  expect(info.body.data.setInviteeInformation.inviteeInformation).toEqual({ diet: 'vegan' });

  const sent = await t.gql(
    `mutation($ids: [ID!]!) { sendInvitationMails(input: { ids: $ids }) { queued invitationIds } }`,
    { ids: [inv.id] },
  );
  expect(sent.body.data.sendInvitationMails).toEqual({ queued: 1, invitationIds: [inv.id] });
  const filtered = await t.gql(
    `mutation($eventId: ID!) { sendInvitationMailsFiltered(input: { eventId: $eventId, status: "created" }) { queued } }`,
    { eventId },
  );
  expect(filtered.body.data.sendInvitationMailsFiltered.queued).toBe(1);
  const free = await t.gql(
    `mutation($ids: [ID!]!) { sendInvitationMailsFreeText(input: { ids: $ids, subject: "Hi", text: "Hello {firstname}" }) { queued } }`,
    { ids: [inv.id] },
  );
  expect(free.body.data.sendInvitationMailsFreeText.queued).toBe(1);
  const mails = await t.gql(`query($id: ID!) { invitationMails(id: $id) { kind status } }`, {
    id: inv.id,
  });
  expect(mails.body.data.invitationMails.map((m: { kind: string }) => m.kind).sort()).toEqual([
    'invitation',
    'invitation-free-text',
  ]);

  const status = await t.gql(
    `mutation($ids: [ID!]!) { setInvitationsStatus(input: { ids: $ids, status: "withdrawn" }) { status } }`,
    { ids: [inv.id] },
  );
  expect(status.body.data.setInvitationsStatus).toEqual([{ status: 'withdrawn' }]);
  const refused = await t.gql(
    `mutation($ids: [ID!]!) { setInvitationsStatus(input: { ids: $ids, status: "accepted" }) { status } }`,
    { ids: [inv.id] },
  );
  expect(refused.body.errors[0].message).toMatch(/withdrawn.*accepted/);

  const foreign = await t.gql(
    `query($id: ID!) { invitation(id: $id) { id } }`,
    { id: inv.id },
    t.B,
  );
  expect(foreign.body.errors[0].extensions.statusCode).toBe(404);

  const one = await t.gql(`mutation($id: ID!) { deleteInvitation(id: $id) { ids } }`, {
    id: inv.id,
  });
  expect(one.body.data.deleteInvitation.ids).toEqual([inv.id]);
  const rest = await t.gql(
    `mutation($ids: [ID!]!) { deleteInvitations(input: { ids: $ids }) { ids } }`,
    { ids: [byMail.body.data.createInvitation.id] },
  );
  expect(rest.body.data.deleteInvitations.ids).toHaveLength(1);
  expect(await t.count('Invitation', `"eventId" = $1::uuid`, [eventId])).toBe(0);
});

it('shows and rejects by token publicly; an import job is readable by its tenant only', async () => {
  const eventId = await copiedEvent(t, t.A, { title: 'Gala' });
  const res = await t.call('POST', '/invitations', { eventId, email: 'pub@example.com' });
  const token = res.body.data.token;
  const shown = await t.gql(
    `query($token: String!) { publicInvitation(token: $token) { status booked event { title timeZone } } }`,
    { token },
  );
  expect(shown.body.data.publicInvitation).toEqual({
    status: 'created',
    booked: false,
    event: { title: 'Gala', timeZone: 'Europe/Berlin' },
  });
  const foreign = await t.gql(
    `query($token: String!) { publicInvitation(token: $token) { status } }`,
    { token },
    t.B,
  );
  expect(foreign.body.errors[0].extensions.statusCode).toBe(404);
  const rejected = await t.gql(
    `mutation($token: String!) { rejectInvitation(token: $token) { status respondedAt } }`,
    { token },
  );
  expect(rejected.body.data.rejectInvitation.status).toBe('rejected');

  const form = new FormData();
  form.append('eventId', eventId);
  form.append('file', new Blob(['email\nj1@example.com\n'], { type: 'text/csv' }), 'a.csv');
  const headers = {
    'X-Integration-Name': 'x',
    'X-Integration-Provider': 'y',
    'X-Service-TenantId': t.A,
  };
  const job = await t.api.rest('POST', '/invitations/import', form, headers);
  expect(job.status).toBe(202);
  const q = `query($id: ID!) { invitationImportJob(jobId: $id) { id status totalRows } }`;
  const mine = await t.gql(q, { id: job.body.data.jobId });
  expect(mine.body.data.invitationImportJob).toMatchObject({
    id: job.body.data.jobId,
    totalRows: 1,
  });
  const none = await t.gql(
    `query($id: ID!) { invitationImportJob(jobId: $id, results: "none") { results { row } } }`,
    { id: job.body.data.jobId },
  );
  expect(none.body.data.invitationImportJob.results).toBeNull();
  const theirs = await t.gql(q, { id: job.body.data.jobId }, t.B);
  expect(theirs.body.errors[0].extensions.statusCode).toBe(404);
  await eventually(async () => {
    const r = await t.gql(q, { id: job.body.data.jobId });
    return r.body.data.invitationImportJob.status === 'done' ? true : undefined;
  });
});
