import { Client, eventually, startClient, TestTenant } from './client';

// The gateway stands when a subgraph falls (issue 9): it serves the supergraph composed at build
// time, so crm-companies being down, even while the gateway starts, fails only crm-companies'
// REST paths and GraphQL fields (503 naming it); people and tenant-info keep answering.

// processes are stopped and started within the tests
jest.setTimeout(90000);

let client: Client;
let t: TestTenant;
let personId: string;

beforeAll(async () => {
  client = await startClient('subgraph_down');
  t = await client.tenant();
  const person = await client.rest(t, 'POST', '/people', { firstname: 'Ada', lastname: 'Up' });
  expect(person.status).toBe(201);
  personId = person.body.data.id;
}, 120000);
afterAll(async () => client?.stack.shutdown());

/** What still answers and what does not while crm-companies is down. */
async function onlyCompaniesFail() {
  const people = await client.rest(t, 'GET', `/people/${personId}`);
  expect(people.status).toBe(200);
  expect(people.body.data.firstname).toBe('Ada');
  expect((await client.rest(t, 'GET', '/tenant-info')).status).toBe(200);

  const companies = await client.rest(t, 'GET', '/companies');
  expect(companies.status).toBe(503);
  expect(companies.body).toMatchObject({ data: null, statusCode: 503 });
  expect(companies.body.message).toContain('crm-companies');

  const gql = await client.graphql(
    t,
    `query($id: ID!) {
      person(id: $id) { id firstname }
      tenantInfo { id }
      companies { totalResults }
    }`,
    { id: personId },
  );
  expect(gql.status).toBe(200);
  // companies is non-null: its error nulls the whole data; asked apart, the others answer
  expect(gql.body.errors).toEqual([
    expect.objectContaining({
      message: expect.stringContaining('crm-companies'),
      extensions: expect.objectContaining({ code: 'SERVICE_UNAVAILABLE', statusCode: 503 }),
    }),
  ]);
  const others = await client.graphql(
    t,
    `query($id: ID!) { person(id: $id) { id firstname } tenantInfo { id } company(id: $id) { id } }`,
    { id: personId },
  );
  expect(others.body.data).toEqual({
    person: { id: personId, firstname: 'Ada' },
    tenantInfo: { id: t.id },
    company: null,
  });
  expect(others.body.errors).toHaveLength(1);
  expect(others.body.errors[0].extensions).toMatchObject({
    code: 'SERVICE_UNAVAILABLE',
    statusCode: 503,
  });
}

it('with crm-companies down, only its paths and fields answer 503', async () => {
  await client.stack.stop('crm-companies');
  try {
    await onlyCompaniesFail();
  } finally {
    await client.stack.start('crm-companies');
  }
  await eventually(async () => {
    expect((await client.rest(t, 'GET', '/companies')).status).toBe(200);
  });
});

it('the gateway starts and is ready while crm-companies is down, then serves it once it is up', async () => {
  await client.stack.stop('crm-companies');
  try {
    await client.stack.stop('gateway');
    // start() waits for /health/ready: before, composition (and so readiness) waited for every subgraph
    await client.stack.start('gateway');
    await onlyCompaniesFail();
  } finally {
    await client.stack.start('crm-companies');
  }
  const res = await client.graphql(t, '{ companies { totalResults } }');
  expect(res.body).toEqual({ data: { companies: { totalResults: 0 } } });
});
