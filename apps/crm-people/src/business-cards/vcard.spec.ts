import type { BusinessCard } from '../people/dto/person.dto';
import ICAL from 'ical.js';
import { buildVCard, cardNames, contentDisposition, vCardTimestamp } from './vcard';

const card = (over: Partial<BusinessCard> = {}): BusinessCard => ({
  id: '6f1c1c4e-8b0a-4b7e-9d3a-2f7d1c0b9a11',
  isPrivate: false,
  alternativeSalutation: null,
  alternativeTitle: null,
  alternativeFirstname: null,
  alternativeLastname: null,
  useAlternativeName: false,
  companyId: null,
  business: null,
  companyRelationType: null,
  companyRelationSince: null,
  companyRelationUntil: null,
  validFrom: null,
  validTo: null,
  phones: [],
  emails: [],
  businessPositions: [],
  addresses: [],
  isFavorite: false,
  isActive: true,
  markAsFavorite: false,
  ...over,
});
const person = { salutation: null, title: null, firstname: 'Anna', lastname: 'Schmidt' };
const unfold = (text: string) => text.replace(/\r\n /g, '').split('\r\n');

describe('vCard', () => {
  it('takes alternative name parts only where the card has them', () => {
    expect(
      cardNames(card({ useAlternativeName: true, alternativeLastname: 'Meier' }), person),
    ).toEqual({
      ...person,
      lastname: 'Meier',
    });
    expect(cardNames(card({ alternativeLastname: 'Meier' }), person)).toBe(person);
  });

  it('falls back to the business for a card without names, and folds long lines', () => {
    const long = 'A'.repeat(120);
    const v = buildVCard(card({ business: long }), { ...person, firstname: null, lastname: null });
    expect(v.text.split('\r\n').every((l) => l.length <= 75)).toBe(true);
    expect(unfold(v.text)).toContain(`FN:${long}`);
    expect(unfold(v.text)).toContain(`ORG:${long}`);
    expect(v.text.startsWith('BEGIN:VCARD\r\nVERSION:4.0\r\n')).toBe(true);
    expect(v.text.endsWith('END:VCARD\r\n')).toBe(true);
  });

  it('escapes address parts and skips empty addresses', () => {
    const address = {
      id: 'x',
      isFavorite: false,
      addressTypes: [],
      country: null,
      countryCode: null,
      street: null,
      streetAdditional: null,
      zip: null,
      city: null,
      postboxNumber: null,
      federalState: null,
      cityDistrict: null,
      cityAddition: null,
      coordinates: null,
      validationInfo: null,
      isPostOfficeBox: false,
    };
    const v = buildVCard(
      card({
        addresses: [
          address,
          { ...address, street: 'A;B', city: 'C,D', isPostOfficeBox: true, postboxNumber: '7' },
        ],
      }),
      person,
    );
    expect(unfold(v.text).filter((l) => l.startsWith('ADR'))).toEqual([
      'ADR;TYPE=WORK:7;;A\\;B;C\\,D;;;',
    ]);
  });

  it('parses with an independent vCard parser (ical.js), every property, REV as a timestamp', () => {
    const before = Date.now();
    const v = buildVCard(
      card({
        business: 'ACME; Berlin',
        emails: [{ mail: 'anna@acme.example', type: null, isFavorite: true }],
        phones: [{ number: '+49 30 1234567', type: 'Mobil', isFavorite: true }],
        businessPositions: [{ position: 'CTO', department: 'IT', isFavorite: true }],
      }),
      { ...person, title: 'Dr.' },
    );
    const vcard = new ICAL.Component(ICAL.parse(v.text) as unknown[]);
    expect(vcard.name).toBe('vcard');
    expect(vcard.getFirstPropertyValue('version')).toBe('4.0');
    expect(vcard.getFirstPropertyValue('fn')).toBe('Dr. Anna Schmidt');
    expect(vcard.getFirstPropertyValue('org')).toEqual(['ACME, Berlin', 'IT']);
    expect(vcard.getFirstPropertyValue('email')).toBe('anna@acme.example');
    const rev = vcard.getFirstProperty('rev')!;
    expect(rev.type).toBe('timestamp');
    const at = (rev.getFirstValue() as ICAL.VCardTime).toJSDate().getTime();
    expect(at).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000);
    expect(at).toBeLessThanOrEqual(Date.now());
    expect(vCardTimestamp(new Date('2026-11-23T16:34:55.289Z'))).toBe('20261123T163455Z');
  });

  it('names the file in ASCII and exactly (RFC 5987)', () => {
    expect(contentDisposition('Zoë "Z" / Ørsted.vcf')).toBe(
      `attachment; filename="Zoe _Z_ _ _rsted.vcf"; filename*=UTF-8''Zo%C3%AB%20_Z_%20_%20%C3%98rsted.vcf`,
    );
    expect(contentDisposition('李.vcf')).toBe(
      `attachment; filename="business-card.vcf"; filename*=UTF-8''%E6%9D%8E.vcf`,
    );
  });
});
