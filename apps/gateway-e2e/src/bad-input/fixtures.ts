import { uploadHeaders } from '@crm/testing';
import { Answer, Client, TestTenant } from '../client';
import type { IdPool } from './requests';

// System entries every tenant has (seeded lists): a subsidiary relation type, a manager role.
const SUBSIDIARY = '00000000-0000-4000-b000-000000000601';
const ACCOUNT_MANAGER = '00000000-0000-4000-a000-000000000401';

function created(res: Answer, what: string): string {
  if (res.status !== 201 && res.status !== 200) {
    throw new Error(`fixture ${what}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const data = Array.isArray(res.body.data) ? res.body.data[0] : res.body.data;
  return data.id;
}

/**
 * One of everything a path parameter can name, for tenant `t`: the probe sends the probing
 * tenant's ids (to reach the handlers) and the other tenant's (which must stay out of reach).
 */
export async function createFixtures(client: Client, t: TestTenant): Promise<IdPool> {
  const rest = (method: string, p: string, body?: unknown) => client.rest(t, method, p, body);
  const upload = (p: string) => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('probe fixture')], { type: 'text/plain' }), 'f.txt');
    return client.raw(`/v1/crm${p}`, {
      method: 'POST',
      headers: { ...uploadHeaders(t.id), Authorization: `Bearer ${t.key}` },
      body: form,
    });
  };
  const person = created(
    await rest('POST', '/people', { firstname: 'Ada', lastname: 'Probe' }),
    'person',
  );
  const other = created(
    await rest('POST', '/people', { firstname: 'Bob', lastname: 'Probe' }),
    'person 2',
  );
  const company = created(await rest('POST', '/companies', { name: 'Probe GmbH' }), 'company');
  const parent = created(
    await rest('POST', '/companies', { name: 'Probe Holding AG' }),
    'company 2',
  );
  const card = created(await rest('POST', `/people/${person}/business-cards`, {}), 'card');
  const ids: IdPool = {
    person: [person, other],
    company: [company, parent],
    card: [card],
    cardAddress: [
      created(
        await rest('POST', `/people/${person}/business-cards/${card}/addresses`, {
          city: 'Hamburg',
        }),
        'card address',
      ),
    ],
    personRelation: [
      created(
        await rest('POST', `/people/${person}/relations`, {
          personId: other,
          type: { typeIdentifier: 'friend' },
        }),
        'person relation',
      ),
    ],
    touchpoint: [
      created(
        await rest('POST', '/touchpoints', {
          type: 'call',
          subject: 'Probe',
          start: '2026-01-10T09:00:00Z',
          personIds: [person],
        }),
        'touchpoint',
      ),
    ],
    companyAddress: [
      created(
        await rest('POST', `/companies/${company}/addresses`, {
          street: 'Hauptstraße 1',
          zip: '10115',
          city: 'Berlin',
          countryCode: 'DE',
        }),
        'company address',
      ),
    ],
    phone: [
      created(
        await rest('POST', `/companies/${company}/phones`, { number: '+49 30 1234567' }),
        'phone',
      ),
    ],
    email: [
      created(
        await rest('POST', `/companies/${company}/emails`, { email: 'info@probe.example' }),
        'email',
      ),
    ],
    bankAccount: [
      created(
        await rest('POST', `/companies/${company}/bank-accounts`, {
          iban: 'DE89370400440532013000',
        }),
        'bank account',
      ),
    ],
    companyRelation: [
      created(
        await rest('POST', `/companies/${company}/relations`, {
          relatedCompanyId: parent,
          relationType: { id: SUBSIDIARY },
        }),
        'company relation',
      ),
    ],
    manager: [
      created(
        await rest('POST', `/companies/${company}/managed-by`, {
          personId: person,
          managerRoleId: ACCOUNT_MANAGER,
        }),
        'manager',
      ),
    ],
    peopleEntry: [
      created(await rest('POST', '/people-settings/orga-tags', { text: 'Probe' }), 'people entry'),
    ],
    companyEntry: [
      created(await rest('POST', '/company-settings/tags', { text: 'Probe' }), 'company entry'),
    ],
    personDocument: [created(await upload(`/people/${person}/documents`), 'person document')],
    companyDocument: [created(await upload(`/companies/${company}/documents`), 'company document')],
    tenant: [t.id],
    apiKey: [t.keyId],
  };
  return ids;
}
