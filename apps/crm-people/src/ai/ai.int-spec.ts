import { randomUUID } from 'node:crypto';
import { ServiceTestClient } from '@crm/testing';
import { FilesService, startWithStorage } from '../files/test/files-harness';

// Services start slowly on a busy machine; 20 MB uploads take a while.
jest.setTimeout(60000);

const A = `tenant-a-${randomUUID().slice(0, 8)}`;
const SIGNATURE = `Mit freundlichen Grüßen

Dr. Anna Schmidt
Leiterin Vertrieb
Muster GmbH
Musterstraße 12
80331 München
Tel.: +49 89 1234567-0
Mobil: 0170 1234567
anna.schmidt@muster.de`;

let svc: FilesService;

const api = new ServiceTestClient(() => svc.url);
const call = (path: string, body: unknown, lang = 'en') =>
  api.restAs(A, 'POST', path, body, { 'Accept-Language': lang });

beforeAll(async () => {
  svc = await startWithStorage('crm_people_it_f_ai');
}, 60000);
afterAll(async () => {
  await svc?.stop();
}, 30000);

describe('P24 POST /ai/contact-extraction', () => {
  it('answers 200 with person, card and confidences', async () => {
    const { status, body } = await call('/ai/contact-extraction', { text: SIGNATURE }, 'de');
    expect(status).toBe(200);
    expect(body.data.person).toEqual({
      salutation: null,
      title: 'Dr.',
      firstname: 'Anna',
      lastname: 'Schmidt',
    });
    expect(body.data.card).toEqual({
      business: 'Muster GmbH',
      businessPositions: [{ position: 'Leiterin Vertrieb', department: 'Vertrieb' }],
      emails: [{ mail: 'anna.schmidt@muster.de' }],
      phones: [
        { number: '+498912345670', type: 'landline' },
        { number: '+491701234567', type: 'mobile' },
      ],
      addresses: [
        {
          street: 'Musterstraße 12',
          zip: '80331',
          city: 'München',
          federalState: null,
          country: 'Deutschland',
          countryCode: 'DE',
        },
      ],
    });
    expect(body.data.confidence).toMatchObject({ emails: 0.99, title: 0.95, salutation: null });
  });

  it('refuses a missing, empty or too long text with a 400 naming the field, in de too', async () => {
    const missing = await call('/ai/contact-extraction', {});
    expect(missing.status).toBe(400);
    expect(missing.body.errors).toEqual([
      expect.objectContaining({ field: 'text', rule: 'isDefined' }),
    ]);
    const empty = await call('/ai/contact-extraction', { text: '' });
    expect(empty.body.errors[0]).toMatchObject({ field: 'text', rule: 'isNotEmpty' });
    const long = await call('/ai/contact-extraction', { text: 'x'.repeat(20001) }, 'de');
    expect(long.status).toBe(400);
    expect(long.body.errors[0]).toMatchObject({
      field: 'text',
      rule: 'maxLength',
      message: expect.stringContaining('20000'),
    });
    expect((await call('/ai/contact-extraction', { text: 'x'.repeat(20000) })).status).toBe(200);
  });

  it('GraphQL extractContact(text) answers the same, and validates the same', async () => {
    const gql = async (text: string) =>
      (
        await api.graphqlAs(
          A,
          'query($text: String!) { extractContact(text: $text) { person { firstname lastname } card { business phones { number type } addresses { country countryCode } } confidence { lastname } } }',
          { text },
        )
      ).body;
    const ok = await gql(SIGNATURE);
    expect(ok.data.extractContact).toMatchObject({
      person: { firstname: 'Anna', lastname: 'Schmidt' },
      card: {
        business: 'Muster GmbH',
        phones: [{ number: '+498912345670' }, { number: '+491701234567', type: 'mobile' }],
        addresses: [{ country: 'Germany', countryCode: 'DE' }],
      },
    });
    expect(ok.data.extractContact.confidence.lastname).toBeGreaterThan(0.8);
    const bad = await gql('x'.repeat(20001));
    expect(bad.errors[0].extensions).toMatchObject({ code: 'VALIDATION_FAILED', statusCode: 400 });
  });
});
