// Scenarios 2-4 on crm-people: creating a person with the seed's full body (2a direct vs raw,
// 2b gateway vs raw, 2c with tags vs without), reading a person with cards, relations and
// lifecycle (3: direct vs raw, gateway vs direct) and a GraphQL query of it (4: gateway vs the
// subgraph directly). The raw baselines are in ../raw/people.mjs.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchAll, freePort, NEW_RECORD, row } from '../measure.mjs';
import { startRawBaseline } from '../raw-baseline.mjs';
import { startBareProxy } from '../raw/proxy.mjs';
import { apiClient } from '../stack.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** P3 with every field of the seed's create: tags by text (the same texts in every request). */
export const personBody = (lifecycleId) => ({
  salutation: 'Frau',
  title: 'Dr.',
  firstname: 'Bench',
  lastname: 'Marker',
  birthday: { birthday: '1980-05-17', considerBirthYear: true },
  importantDates: [{ text: 'Company anniversary', date: '2015-03-01T00:00:00.000Z' }],
  socialMedias: [{ type: 'linkedin', link: 'https://www.linkedin.com/in/bench-marker' }],
  orgaTags: [{ text: 'Bench VIP' }],
  personalities: [{ text: 'Analytical', category: 'Bench' }],
  customerNumber: 'B-1',
  employeeStatus: 'active',
  employeeNumber: 'E-1',
  lifecycle: { lifecycleId },
});

const card = (n, addressTypes) => ({
  business: `Bench Works ${n}`,
  isFavorite: n === 1,
  phones: [{ type: 'office', number: `+49 30 123456${n}`, isFavorite: true }],
  emails: [{ type: { id: 'business', text: 'Business' }, mail: `bench${n}@example.com` }],
  businessPositions: [{ department: 'Sales', position: 'Manager', isFavorite: true }],
  addresses: [
    {
      isFavorite: true,
      addressTypes: [{ id: addressTypes[0].id }],
      street: `Hauptstraße ${n}`,
      zip: '10115',
      city: 'Berlin',
      country: 'Germany',
      countryCode: 'DE',
      coordinates: { longitude: 13.38, latitude: 52.53 },
    },
    {
      addressTypes: addressTypes.map((t) => ({ id: t.id })),
      postboxNumber: `12${n}`,
      isPostOfficeBox: true,
      zip: '10117',
      city: 'Berlin',
      countryCode: 'DE',
    },
  ],
});

/**
 * Through the gateway, as a client would: a lifecycle and two address types of the tenant, the
 * person to read (full body: tags, lifecycle) with two cards of two addresses each and relations
 * to two other people.
 */
async function seed(api) {
  const [lifecycle] = await api('POST', '/v1/crm/people-settings/lifecycles', [
    { text: 'Bench customer', color: '#336699' },
  ]);
  const addressTypes = await api('POST', '/v1/crm/people-settings/address-types', [
    { text: 'Bench office' },
    { text: 'Bench billing' },
  ]);
  const person = await api('POST', '/v1/crm/people', personBody(lifecycle.id));
  for (const n of [1, 2]) {
    await api('POST', `/v1/crm/people/${person.id}/business-cards`, card(n, addressTypes));
  }
  for (const [n, typeIdentifier] of [
    [1, 'colleague'],
    [2, 'manager'],
  ]) {
    const other = await api('POST', '/v1/crm/people', { firstname: 'Other', lastname: `No ${n}` });
    await api('POST', `/v1/crm/people/${person.id}/relations`, {
      personId: other.id,
      type: { typeIdentifier, isFavorite: n === 1 },
    });
  }
  return { lifecycleId: lifecycle.id, personId: person.id };
}

async function createScenario(stack, raw, lifecycleId) {
  const scenario = '2 POST /v1/crm/people';
  const body = personBody(lifecycleId);
  const untagged = { ...body, orgaTags: undefined, personalities: undefined }; // absent in JSON
  const target = (name, url, headers, b = body) => ({
    name,
    url,
    method: 'POST',
    path: '/v1/crm/people',
    body: b,
    headers,
  });
  const rawT = target('raw node:http + pg', raw.url, stack.serviceHeaders);
  const directT = target('direct crm-people', stack.peopleUrl, stack.serviceHeaders);
  // A key per request, as an integrator sends it: the service then runs each create in one
  // transaction with the record of its key and answer (IdempotentRequests).
  const keyed = {
    ...target('gateway, Idempotency-Key', stack.gatewayUrl, stack.gatewayHeaders),
    setupRequest: (req) => ({
      ...req,
      headers: { ...req.headers, 'idempotency-key': randomUUID() },
    }),
  };
  // The service's part of it: a key and the gateway's fingerprint sent to crm-people directly.
  const directKeyed = {
    ...target('direct crm-people, Idempotency-Key', stack.peopleUrl, stack.serviceHeaders),
    setupRequest: (req) => ({
      ...req,
      headers: {
        ...req.headers,
        'idempotency-key': randomUUID(),
        'x-service-idempotency-fingerprint': 'f'.repeat(64),
      },
    }),
  };
  const [base, direct, gateway, noTags, gatewayKeyed, serviceKeyed] = await benchAll(scenario, [
    { t: rawT, like: { target: directT, ignore: NEW_RECORD } },
    { t: directT },
    { t: target('gateway', stack.gatewayUrl, stack.gatewayHeaders) },
    { t: target('direct crm-people, no tags', stack.peopleUrl, stack.serviceHeaders, untagged) },
    { t: keyed },
    { t: directKeyed },
  ]);
  return [
    row(scenario, base),
    row('2a create: direct vs raw', direct, base, 0.5),
    row('2b create: gateway vs raw', gateway, base, 0.35),
    row('2c create: no tags (base of 2c)', noTags),
    row('2c create: tags vs no tags', direct, noTags, 0.8),
    row('2d create: gateway with Idempotency-Key vs without', gatewayKeyed, gateway),
    row('2e create: direct with Idempotency-Key vs without', serviceKeyed, direct),
  ];
}

/**
 * Scenario 3. The bare proxy (../raw/proxy.mjs: node:http in, undici out, nothing checked) is
 * measured in the same rounds without a goal: what a proxy in Node.js costs at all on this
 * machine, against which the gateway's ratio can be read.
 */
async function readScenario(stack, raw, personId) {
  const scenario = '3 GET /v1/crm/people/{id}';
  const target = (name, url, headers) => ({
    name,
    url,
    path: `/v1/crm/people/${personId}`,
    headers,
  });
  const rawT = target('raw node:http + pg', raw.url, stack.serviceHeaders);
  const directT = target('direct crm-people', stack.peopleUrl, stack.serviceHeaders);
  const bareProxy = await startBareProxy(await freePort(), stack.peopleUrl);
  stack.add(bareProxy);
  const [base, direct, gateway, proxied] = await benchAll(scenario, [
    { t: rawT, like: { target: directT } },
    { t: directT },
    { t: target('gateway', stack.gatewayUrl, stack.gatewayHeaders) },
    { t: target('bare proxy (node:http + undici)', bareProxy.url, stack.serviceHeaders) },
  ]);
  return [
    row(scenario, base),
    row('3 read: direct vs raw', direct, base, 0.4),
    row('3 read: gateway vs direct', gateway, direct, 0.85),
    row('3 read: bare proxy vs direct', proxied, direct),
  ];
}

/**
 * Scenario 3t: the read of 3, each request for another of BENCH_TENANTS tenants (20) in turn,
 * beside the same read for one tenant. Row-level security binds each pooled connection to its
 * caller's tenant, one statement whenever the tenant changes: this is what that costs a service
 * whose callers are many tenants (the other scenarios have one tenant, so they bind once per
 * connection).
 */
async function tenantsScenario(stack, personId) {
  const scenario = '3t GET /v1/crm/people/{id}, tenants in turn';
  const count = Math.max(2, Number(process.env.BENCH_TENANTS ?? 20));
  const readers = [{ headers: stack.serviceHeaders, personId }];
  for (let i = 1; i < count; i++) {
    const tenant = await stack.addTenant(`bench-t${i}`);
    const seeded = await seed(apiClient(stack.gatewayUrl, tenant.gatewayHeaders));
    readers.push({ headers: tenant.serviceHeaders, personId: seeded.personId });
  }
  let next = 0;
  const [one, many] = await benchAll(scenario, [
    {
      t: {
        name: 'direct crm-people, one tenant',
        url: stack.peopleUrl,
        path: `/v1/crm/people/${personId}`,
        headers: stack.serviceHeaders,
      },
    },
    {
      t: {
        name: `direct crm-people, ${count} tenants in turn`,
        url: stack.peopleUrl,
        path: `/v1/crm/people/${personId}`,
        headers: stack.serviceHeaders,
        setupRequest: (req) => {
          const r = readers[next++ % readers.length];
          return {
            ...req,
            path: `/v1/crm/people/${r.personId}`,
            headers: { ...req.headers, ...r.headers },
          };
        },
      },
    },
  ]);
  return [row(scenario, one), row(`3t read: ${count} tenants vs one`, many, one, 0.9)];
}

async function graphqlScenario(stack, personId) {
  const scenario = '4 GraphQL person(id)';
  const body = {
    query: 'query BenchPerson($id: ID!) { person(id: $id) { id firstname cards { id } } }',
    variables: { id: personId },
  };
  // an answer with errors comes with status 200: the body must hold the person and no errors
  const verifyBody = (text) => text.includes(`"id":"${personId}"`) && !text.includes('"errors"');
  const target = (name, url, headers) => ({
    name,
    url,
    method: 'POST',
    path: '/graphql',
    body,
    headers,
    verifyBody,
  });
  const [direct, gateway] = await benchAll(scenario, [
    { t: target('crm-people subgraph', stack.peopleUrl, stack.serviceHeaders) },
    { t: target('gateway', stack.gatewayUrl, stack.gatewayHeaders) },
  ]);
  return [row(scenario, direct), row('4 GraphQL: gateway vs subgraph', gateway, direct, 0.7)];
}

export async function peopleScenarios({ stack, peopleDb }) {
  const { lifecycleId, personId } = await seed(apiClient(stack.gatewayUrl, stack.gatewayHeaders));
  const raw = await startRawBaseline(
    'people',
    await freePort(),
    path.join(here, '../raw/people.mjs'),
    peopleDb,
  );
  try {
    return [
      ...(await createScenario(stack, raw, lifecycleId)),
      ...(await stack
        .waitQuiet('after the creates')
        .then(() => readScenario(stack, raw, personId))),
      ...(await graphqlScenario(stack, personId)),
      ...(await tenantsScenario(stack, personId)),
    ];
  } finally {
    await raw.stop();
  }
}
