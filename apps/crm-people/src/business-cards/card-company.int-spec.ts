import { randomUUID } from 'node:crypto';
import { CompaniesStandIn } from '../test/companies-stand-in';
import { CardTestKit } from './test/card-test-fixtures';

// startup and requests can be slow on a loaded machine (jest's default is 5 s)
jest.setTimeout(60000);

// B8 against real NATS (no responder, then a responder standing in for crm-companies) and B9.

let kit: CardTestKit;
let stub: CompaniesStandIn;
let employee: string;

beforeAll(async () => {
  kit = await CardTestKit.start('crm_people_it_b_company');
  stub = await CompaniesStandIn.connect();
  employee = await kit.entry(kit.A, 'COMPANY_RELATION_TYPES', 'Employee');
}, 60000);
afterAll(async () => {
  await stub?.close();
  await kit?.close();
}, 30000);

async function cardOf(body: Record<string, unknown> = {}) {
  const personId = await kit.person();
  const card = await kit.card(personId, body);
  return { personId, card, path: `/people/${personId}/business-cards/${card.id}` };
}

describe('B8 connect a card with a company', () => {
  it('answers 503 and writes nothing when crm-companies does not answer', async () => {
    const { path } = await cardOf({ business: 'Acme' });
    const res = await kit.call('PUT', `${path}/company`, { companyId: randomUUID() });
    expect(res.status).toBe(503);
    expect(res.body.message).toContain('crm-companies');
    expect((await kit.call('GET', path)).body.data.companyId).toBeNull();
    // B2 with a company asks too: nothing is created
    const personId = await kit.person();
    const created = await kit.call('POST', `/people/${personId}/business-cards`, {
      companyId: randomUUID(),
    });
    expect(created.status).toBe(503);
    expect((await kit.call('GET', `/people/${personId}/business-cards`)).body.data).toEqual([]);
  });

  describe('with crm-companies answering', () => {
    const acme = randomUUID();
    beforeAll(async () => {
      stub.add(kit.A, acme);
      await stub.start();
    });
    afterAll(() => stub.stop());

    it('connects a known company with relation type and dates', async () => {
      const { path } = await cardOf();
      const res = await kit.call('PUT', `${path}/company`, {
        companyId: acme,
        companyRelationType: { id: employee },
        companyRelationSince: '2022-02-01T00:00:00Z',
      });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        companyId: acme,
        companyRelationType: { id: employee, text: 'Employee' },
        companyRelationSince: '2022-02-01T00:00:00.000Z',
        companyRelationUntil: null,
      });
      expect(stub.asked.at(-1)).toEqual({ tenantId: kit.A, companyId: acme });
    });

    it("answers 404 for a company crm-companies does not know (also another tenant's)", async () => {
      const { path } = await cardOf();
      const unknown = randomUUID();
      const res = await kit.call('PUT', `${path}/company`, { companyId: unknown });
      expect(res.status).toBe(404);
      expect(res.body.message).toContain(unknown);
      expect((await kit.call('GET', path)).body.data.companyId).toBeNull();
      const personB = await kit.person(kit.B);
      const cardB = await kit.card(personB, {}, kit.B);
      const foreign = await kit.call(
        'PUT',
        `/people/${personB}/business-cards/${cardB.id}/company`,
        { companyId: acme },
        kit.B,
      );
      expect(foreign.status).toBe(404);
    });

    it('answers 409 for a private card without asking, and 400 for bad input', async () => {
      const { path } = await cardOf({ isPrivate: true });
      const before = stub.asked.length;
      const res = await kit.call('PUT', `${path}/company`, { companyId: acme });
      expect(res.status).toBe(409);
      expect(stub.asked.length).toBe(before);
      const bad = await kit.call('PUT', `${path}/company`, {
        companyId: 'x',
        companyRelationSince: '2022-01-01T00:00:00Z',
      });
      expect(bad.status).toBe(400);
      expect(bad.body.errors[0]).toMatchObject({ field: 'companyId', rule: 'isUuid' });
      const order = await kit.call('PUT', `${path}/company`, {
        companyId: acme,
        companyRelationType: { id: randomUUID() },
        companyRelationSince: '2022-01-01T00:00:00Z',
        companyRelationUntil: '2021-01-01T00:00:00Z',
      });
      expect(order.body.errors.map((e: any) => e.field).sort()).toEqual([
        'companyRelationType.id',
        'companyRelationUntil',
      ]);
      expect((await kit.call('PUT', `${path}/company`, {})).body.errors[0]).toMatchObject({
        field: 'companyId',
        rule: 'isDefined',
      });
    });

    it('disconnects with companyId null without asking and clears the relation', async () => {
      const { path } = await cardOf();
      await kit.call('PUT', `${path}/company`, {
        companyId: acme,
        companyRelationType: { id: employee },
      });
      await stub.stop();
      const res = await kit.call('PUT', `${path}/company`, { companyId: null });
      expect(res.status).toBe(200);
      expect(res.body.data).toMatchObject({
        companyId: null,
        companyRelationType: null,
        companyRelationSince: null,
      });
      await stub.start();
    });

    it('another tenant or person gets 404 and nothing changes', async () => {
      const { personId, card, path } = await cardOf();
      expect((await kit.call('PUT', `${path}/company`, { companyId: acme }, kit.B)).status).toBe(
        404,
      );
      const other = await kit.person();
      const res = await kit.call('PUT', `/people/${other}/business-cards/${card.id}/company`, {
        companyId: acme,
      });
      expect(res.status).toBe(404);
      expect(
        (await kit.call('GET', `/people/${personId}/business-cards/${card.id}`)).body.data
          .companyId,
      ).toBeNull();
    });

    it('B5 may connect a company too (asked), and a private card with one is 409', async () => {
      const { path } = await cardOf();
      const ok = await kit.call('PUT', path, { companyId: acme });
      expect(ok.body.data.companyId).toBe(acme);
      expect((await kit.call('PUT', path, { companyId: randomUUID() })).status).toBe(404);
      expect((await kit.call('PUT', path, { isPrivate: true })).status).toBe(409);
    });
  });
});

/** Unfolded content lines of a vCard: [name with params, value]. */
function parseVCard(text: string): [string, string][] {
  return text
    .replace(/\r\n[ \t]/g, '')
    .split('\r\n')
    .filter(Boolean)
    .map((line) => {
      const i = line.indexOf(':');
      return [line.slice(0, i), line.slice(i + 1)];
    });
}

describe('B9 vCard', () => {
  it('answers a vCard 4.0 file with names, organisation, title, e-mails, phones and addresses', async () => {
    const personId = await kit.person(kit.A, {
      salutation: 'Herr',
      title: 'Dr.',
      firstname: 'Jürgen',
      lastname: 'Groß',
    });
    const card = await kit.card(personId, {
      business: 'Acme; Söhne',
      businessPositions: [
        { position: 'Clerk', department: 'Back office' },
        { position: 'CEO', department: 'Board', isFavorite: true },
      ],
      emails: [
        { mail: 'j@home.example', type: { id: 'private', text: 'Privat' } },
        { mail: 'j.gross@acme.example', isFavorite: true },
      ],
      phones: [
        { type: 'mobile', number: '+49 151 23456789' },
        { type: 'office', number: '+49 30 1234567', isFavorite: true },
        { type: 'fax', number: '+49 30 1234568' },
      ],
      addresses: [
        { street: 'Hauptstraße 1', zip: '10115', city: 'Berlin', country: 'Deutschland' },
        { street: 'Ring 2, Hof', city: 'Wien', countryCode: 'AT', isFavorite: true },
      ],
    });
    const res = await kit.call('GET', `/people/${personId}/business-cards/${card.id}/vcard`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/vcard; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe(
      `attachment; filename="Dr. Jurgen Gross.vcf"; filename*=UTF-8''Dr.%20J%C3%BCrgen%20Gro%C3%9F.vcf`,
    );
    const lines = parseVCard(res.text);
    const get = (name: string) => lines.filter(([n]) => n.split(';')[0] === name);
    expect(lines[0]).toEqual(['BEGIN', 'VCARD']);
    expect(lines.at(-1)).toEqual(['END', 'VCARD']);
    expect(get('VERSION')).toEqual([['VERSION', '4.0']]);
    expect(get('UID')).toEqual([['UID', `urn:uuid:${card.id}`]]);
    expect(get('FN')).toEqual([['FN', 'Dr. Jürgen Groß']]);
    expect(get('N')).toEqual([['N', 'Groß;Jürgen;;Herr Dr.;']]);
    expect(get('ORG')).toEqual([['ORG', 'Acme\\, Söhne;Board']]);
    expect(get('TITLE')).toEqual([['TITLE', 'CEO']]);
    expect(get('EMAIL')).toEqual([
      ['EMAIL;TYPE=HOME', 'j@home.example'],
      ['EMAIL;TYPE=WORK', 'j.gross@acme.example'],
    ]);
    expect(get('TEL')).toEqual([
      ['TEL;TYPE=CELL;VALUE=uri', 'tel:+4915123456789'],
      ['TEL;TYPE="WORK,VOICE";VALUE=uri', 'tel:+49301234567'],
      ['TEL;TYPE="WORK,FAX";VALUE=uri', 'tel:+49301234568'],
    ]);
    expect(get('ADR')).toEqual([
      ['ADR;TYPE=WORK;PREF=1', ';;Ring 2\\, Hof;Wien;;;AT'],
      ['ADR;TYPE=WORK', ';;Hauptstraße 1;Berlin;;10115;Deutschland'],
    ]);
  });

  it('uses the alternative name when the card says so', async () => {
    const personId = await kit.person(kit.A, { firstname: 'Anna', lastname: 'Schmidt' });
    const card = await kit.card(personId, {
      useAlternativeName: true,
      alternativeLastname: 'Meier',
    });
    const res = await kit.call('GET', `/people/${personId}/business-cards/${card.id}/vcard`);
    expect(get(parseVCard(res.text), 'FN')).toBe('Anna Meier');
    expect(get(parseVCard(res.text), 'N')).toBe('Meier;Anna;;;');
    expect(res.headers.get('content-disposition')).toContain('filename="Anna Meier.vcf"');
  });

  it('answers 404 in the envelope for another tenant, another person or an unknown card', async () => {
    const personId = await kit.person();
    const card = await kit.card(personId);
    const res = await kit.call(
      'GET',
      `/people/${personId}/business-cards/${card.id}/vcard`,
      undefined,
      kit.B,
    );
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ data: null, statusCode: 404 });
    const other = await kit.person();
    expect((await kit.call('GET', `/people/${other}/business-cards/${card.id}/vcard`)).status).toBe(
      404,
    );
    expect(
      (await kit.call('GET', `/people/${personId}/business-cards/${randomUUID()}/vcard`)).status,
    ).toBe(404);
  });
});

function get(lines: [string, string][], name: string): string | undefined {
  return lines.find(([n]) => n.split(';')[0] === name)?.[1];
}
