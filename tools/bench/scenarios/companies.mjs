// Scenario 5 on crm-companies: creating a company with every field C4 takes (create: direct vs
// raw, gateway vs raw) and reading one with its contact data (read: direct vs raw, gateway vs
// direct). The raw baselines are in ../raw/companies.mjs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchAll, freePort, NEW_RECORD, row } from '../measure.mjs';
import { startRawBaseline } from '../raw-baseline.mjs';
import { apiClient } from '../stack.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));

/** C4 with every field it takes; entries of the tenant's lists, the tag by text. */
const companyBody = (e) => ({
  name: 'Bench Works GmbH',
  nameAddition: 'Berlin',
  website: 'https://www.bench-works.example/about',
  customerNumber: 'K-1',
  vatId: 'DE123456789',
  taxNumber: '27/123/45678',
  foundingDate: '1998-09-04',
  legalForm: { id: e['legal-forms'] },
  industrySector: { id: e['industry-sectors'] },
  employeeCount: { id: e['employee-counts'] },
  customerCount: { id: e['customer-counts'] },
  referenceNumbers: [{ type: { id: e['reference-number-types'] }, number: 'HRB 12345' }],
  socialMedias: [{ type: 'linkedin', link: 'https://www.linkedin.com/company/bench-works' }],
  lifecycle: { lifecycleId: e.lifecycles },
  tags: [{ text: 'Bench partner' }],
});

/**
 * Through the gateway: one entry in each list the body names, the company to read with two
 * addresses, two phones and two e-mails (typed).
 */
async function seed(api) {
  const entries = {};
  for (const list of [
    'lifecycles',
    'legal-forms',
    'industry-sectors',
    'employee-counts',
    'customer-counts',
    'reference-number-types',
    'email-types',
  ]) {
    const [entry] = await api('POST', `/v1/crm/company-settings/${list}`, [
      { text: `Bench ${list}`, ...(list === 'lifecycles' ? { color: '#336699' } : {}) },
    ]);
    entries[list] = entry.id;
  }
  const company = await api('POST', '/v1/crm/companies', companyBody(entries));
  const at = `/v1/crm/companies/${company.id}`;
  for (const n of [1, 2]) {
    await api('POST', `${at}/addresses`, {
      isFavorite: n === 1,
      type: n === 1 ? 'headquarters' : 'billing',
      street: `Hauptstraße ${n}`,
      zip: '10115',
      city: 'Berlin',
      country: 'Germany',
      countryCode: 'DE',
      longitude: 13.38,
      latitude: 52.53,
    });
    await api('POST', `${at}/phones`, {
      type: n === 1 ? 'office' : 'mobile',
      number: `+49 30 765432${n}`,
      label: `Line ${n}`,
      isFavorite: n === 1,
    });
    await api('POST', `${at}/emails`, {
      email: `mail${n}@bench-works.example`,
      emailType: { id: entries['email-types'] },
      isFavorite: n === 1,
    });
  }
  return { entries, companyId: company.id };
}

export async function companyScenarios({ stack, companiesDb }) {
  const { entries, companyId } = await seed(apiClient(stack.gatewayUrl, stack.gatewayHeaders));
  const raw = await startRawBaseline(
    'companies',
    await freePort(),
    path.join(here, '../raw/companies.mjs'),
    companiesDb,
  );
  const targets = (request) => ({
    raw: { name: 'raw node:http + pg', url: raw.url, headers: stack.serviceHeaders, ...request },
    direct: {
      name: 'direct crm-companies',
      url: stack.companiesUrl,
      headers: stack.serviceHeaders,
      ...request,
    },
    gateway: { name: 'gateway', url: stack.gatewayUrl, headers: stack.gatewayHeaders, ...request },
  });
  try {
    const create = '5 POST /v1/crm/companies';
    const c = targets({ method: 'POST', path: '/v1/crm/companies', body: companyBody(entries) });
    const [createRaw, createDirect, createGateway] = await benchAll(create, [
      { t: c.raw, like: { target: c.direct, ignore: NEW_RECORD } },
      { t: c.direct },
      { t: c.gateway },
    ]);

    await stack.waitQuiet('after the company creates');
    const read = '5 GET /v1/crm/companies/{id}';
    const r = targets({ path: `/v1/crm/companies/${companyId}` });
    const [readRaw, readDirect, readGateway] = await benchAll(read, [
      { t: r.raw, like: { target: r.direct } },
      { t: r.direct },
      { t: r.gateway },
    ]);
    return [
      row(create, createRaw),
      row('5 company create: direct vs raw', createDirect, createRaw, 0.5),
      row('5 company create: gateway vs raw', createGateway, createRaw, 0.35),
      row(read, readRaw),
      row('5 company read: direct vs raw', readDirect, readRaw, 0.4),
      row('5 company read: gateway vs direct', readGateway, readDirect, 0.85),
    ];
  } finally {
    await raw.stop();
  }
}
