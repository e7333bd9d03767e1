import { BOOKING_SERVICES, Client, inDays, startIsolatedClient, TestTenant } from './client';

// The events subgraph through the gateway's supergraph: settings, websites, events and webhooks
// in one client's flow, the tariff module on GraphQL, and another tenant seeing nothing. With
// bookings-invitations, which the publication check asks for the event's ticket types.

let client: Client;
let a: TestTenant;
let b: TestTenant;

beforeAll(async () => {
  client = await startIsolatedClient('eventsgraphql', BOOKING_SERVICES);
  a = await client.tenant();
  b = await client.tenant();
}, 120_000);
afterAll(async () => client?.stack.shutdown());

/** Runs a GraphQL operation for `t` and answers its data, failing on any error. */
async function gql(t: TestTenant, query: string, variables: Record<string, unknown> = {}) {
  const res = await client.graphql(t, query, variables);
  expect({ query, errors: res.body.errors }).toEqual({ query, errors: undefined });
  return res.body.data;
}

it('a portal and a published event, set up over GraphQL through the gateway', async () => {
  const settings = await gql(a, `{ eventSettings { timeZone currency } }`);
  expect(settings.eventSettings).toEqual({ timeZone: 'Europe/Berlin', currency: 'EUR' });

  const { createWebsite } = await gql(
    a,
    `mutation($i: CreateWebsiteInput!) { createWebsite(input: $i) { id url published } }`,
    { i: { name: 'Graph portal', url: `https://graph-${a.id}.example/events/`, language: 'de' } },
  );
  expect(createWebsite.published).toBe(false);

  const { createEvent } = await gql(
    a,
    `mutation($i: EventInput!) { createEvent(input: $i) { id title timeZone published sequence } }`,
    {
      i: {
        title: 'Summer night',
        startsAt: inDays(30, 18),
        endsAt: inDays(30, 22),
        timeZone: 'Europe/Berlin',
        venue: { name: 'Open air stage', city: 'Berlin', country: 'DE' },
        capacity: 300,
      },
    },
  );
  expect(createEvent).toMatchObject({ title: 'Summer night', published: false, sequence: 0 });

  // publishing needs an active ticket type (bookings-invitations' subgraph)
  const check = await gql(
    a,
    `mutation($id: ID!, $w: [ID!]) { validateEventPublication(id: $id, websiteIds: $w) { valid errors { field rule } } }`,
    { id: createEvent.id, w: [createWebsite.id] },
  );
  expect(check.validateEventPublication).toEqual({
    valid: false,
    errors: [{ field: 'ticketTypes', rule: 'noActiveTicketType' }],
  });
  await gql(a, `mutation($i: CreateTicketTypeInput!) { createTicketType(input: $i) { id } }`, {
    i: { eventId: createEvent.id, name: 'Standard', price: '25', currency: 'EUR' },
  });

  const { updateEventPublication } = await gql(
    a,
    `mutation($id: ID!, $i: EventPublicationInput!) { updateEventPublication(id: $id, input: $i) { published } }`,
    { id: createEvent.id, i: { published: true, websiteIds: [createWebsite.id] } },
  );
  expect(updateEventPublication.published).toBe(true);

  const listed = await gql(
    a,
    `query($w: ID!) { events(websiteId: $w, published: true) { totalResults items { id title } } event(id: "${createEvent.id}") { id title } }`,
    { w: createWebsite.id },
  );
  expect(listed.events).toEqual({
    totalResults: 1,
    items: [{ id: createEvent.id, title: 'Summer night' }],
  });
  expect(listed.event).toEqual({ id: createEvent.id, title: 'Summer night' });

  // REST and GraphQL see the same event
  expect((await client.rest(a, 'GET', `/events/${createEvent.id}`)).body.data.published).toBe(true);

  // another tenant sees nothing of it, over either
  const theirs = await gql(b, `query($w: ID!) { events(websiteId: $w) { totalResults } }`, {
    w: createWebsite.id,
  });
  expect(theirs).toEqual({ events: { totalResults: 0 } });
  // event(id) of another tenant's event: NOT_FOUND through the gateway, as booking(id) answers
  const notTheirs = await client.graphql(b, `{ event(id: "${createEvent.id}") { id } }`);
  expect(notTheirs.body.data).toBeNull();
  expect(notTheirs.body.errors[0].extensions).toMatchObject({
    code: 'NOT_FOUND',
    statusCode: 404,
  });
  expect((await client.rest(b, 'GET', `/events/${createEvent.id}`)).status).toBe(404);
  // and an id nobody has, in the caller's language like REST's 404
  const unknown = '00000000-0000-4000-8000-000000000000';
  const none = await client.graphql(
    a,
    `{ event(id: "${unknown}") { id } }`,
    {},
    {
      'Accept-Language': 'de',
    },
  );
  expect(none.body.data).toBeNull();
  expect(none.body.errors[0].extensions).toMatchObject({ code: 'NOT_FOUND', statusCode: 404 });
  expect(none.body.errors[0].message).toBe(
    (await client.rest(a, 'GET', `/events/${unknown}`, undefined, { 'Accept-Language': 'de' })).body
      .message,
  );
});

it('a webhook endpoint registered over GraphQL shows its secret once', async () => {
  const { registerWebhookEndpoint } = await gql(
    a,
    `mutation($i: RegisterWebhookEndpointInput!) { registerWebhookEndpoint(input: $i) { id secret eventTypes } }`,
    { i: { url: 'https://8.8.8.8/hooks', eventTypes: ['event.published'] } },
  );
  expect(registerWebhookEndpoint.secret).toMatch(/^whsec_/);
  expect(registerWebhookEndpoint.eventTypes).toEqual(['event.published']);
  const read = await client.rest(a, 'GET', `/integrations/webhooks/${registerWebhookEndpoint.id}`);
  expect(read.status).toBe(200);
  expect(JSON.stringify(read.body)).not.toContain(registerWebhookEndpoint.secret);
});

it('a tariff without the events module is refused on the events fields, with the code and status', async () => {
  const starter = await client.tenant('starter');
  const res = await client.graphql(starter, `{ events { totalResults } }`);
  expect(res.body.errors?.[0]?.extensions).toMatchObject({ statusCode: 403 });
  expect(res.body.errors[0].message).toContain('events');
});
