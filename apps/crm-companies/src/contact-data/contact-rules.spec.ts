import {
  addressProblems,
  addressValues,
  countryCodeProblems,
  emailDomain,
  EMPTY_ADDRESS,
  phoneFacts,
  readPhone,
  sameEmail,
} from './contact-rules';

const rules = (problems: { field: string; rule: string }[]) =>
  problems.map((p) => `${p.field}:${p.rule}`);

describe('addresses', () => {
  it('merges given fields over the stored ones: absent stays, null clears, code upper-cased', () => {
    const stored = { ...EMPTY_ADDRESS, city: 'Berlin', zip: '10115', countryCode: 'DE' };
    expect(addressValues({ zip: null, countryCode: 'at', street: 'Ring 1' }, stored)).toEqual({
      ...EMPTY_ADDRESS,
      city: 'Berlin',
      zip: null,
      countryCode: 'AT',
      street: 'Ring 1',
    });
    expect(addressValues({ isPostOfficeBox: null }, { ...stored, isPostOfficeBox: true })).toEqual({
      ...stored,
      isPostOfficeBox: false,
    });
  });

  it('needs a line, a box number for a post office box, and both coordinates', () => {
    expect(rules(addressProblems({}, EMPTY_ADDRESS))).toEqual(['street:addressLine']);
    const box = { ...EMPTY_ADDRESS, city: 'Bonn', isPostOfficeBox: true };
    expect(rules(addressProblems({}, box))).toEqual(['postboxNumber:postboxRequired']);
    expect(rules(addressProblems({}, { ...box, postboxNumber: '12' }))).toEqual([]);
    expect(rules(addressProblems({}, { ...EMPTY_ADDRESS, zip: '1', longitude: 3 }))).toEqual([
      'latitude:coordinatesPair',
    ]);
    expect(rules(addressProblems({}, { ...EMPTY_ADDRESS, zip: '1', latitude: 0 }))).toEqual([
      'longitude:coordinatesPair',
    ]);
    expect(
      rules(
        addressProblems({}, { ...EMPTY_ADDRESS, postboxNumber: '9', longitude: 0, latitude: 0 }),
      ),
    ).toEqual([]);
  });

  it('checks the given country code, in any case', () => {
    const ok = { ...EMPTY_ADDRESS, city: 'Wien' };
    expect(addressProblems({ countryCode: 'at' }, ok)).toEqual([]);
    expect(addressProblems({ countryCode: 'Austria' }, ok)).toEqual([
      {
        field: 'countryCode',
        rule: 'countryCode',
        args: { value: 'Austria' },
        messageKey: 'contact.rules.countryCode',
      },
    ]);
    expect(countryCodeProblems(null)).toEqual([]);
  });
});

describe('phones', () => {
  it('reads international numbers without a region and stores E.164', () => {
    const read = readPhone('+41 44 668 18 00', undefined);
    expect(read.problems).toEqual([]);
    expect(read.phone?.number).toBe('+41446681800');
  });

  it('reads a national number only with its region', () => {
    expect(readPhone('030 1234567', 'de').phone?.number).toBe('+49301234567');
    const without = readPhone('030 1234567', null);
    expect(without.phone).toBeNull();
    expect(without.problems).toEqual([
      { field: 'number', rule: 'phoneNumber', args: {}, messageKey: 'contact.rules.phoneNumber' },
    ]);
    const wrong = readPhone('12', 'DE');
    expect(wrong.problems).toEqual([
      {
        field: 'number',
        rule: 'phoneNumber',
        args: { region: 'DE' },
        messageKey: 'contact.rules.phoneNumberInRegion',
      },
    ]);
  });

  it('refuses bad regions and extensions', () => {
    expect(rules(readPhone('030 1234567', 'Germany').problems)).toEqual([
      'countryCode:countryCode',
    ]);
    // Antarctica is a country code without a numbering plan
    expect(rules(readPhone('030 1234567', 'AQ').problems)).toEqual(['countryCode:phoneRegion']);
    const ext = readPhone('+49 30 1234567 ext. 12', undefined);
    expect(ext.problems).toEqual([
      expect.objectContaining({ field: 'number', rule: 'phoneExtension', args: { ext: '12' } }),
    ]);
  });

  it('describes a number: E.164, national and international form, country and type', () => {
    expect(phoneFacts('+4915123456789')).toEqual({
      e164: '+4915123456789',
      national: '01512 3456789',
      international: '+49 1512 3456789',
      country: 'DE',
      numberType: 'MOBILE',
    });
    expect(phoneFacts('+80012345678')).toMatchObject({ country: null, numberType: 'TOLL_FREE' });
  });
});

describe('e-mails', () => {
  it('takes the lower-cased part after the last @ as domain', () => {
    expect(emailDomain('Info@Example.COM')).toBe('example.com');
    expect(emailDomain('"a@b"@Sub.Example.org')).toBe('sub.example.org');
  });

  it('compares addresses ignoring case', () => {
    expect(sameEmail('Info@example.com', 'info@EXAMPLE.com')).toBe(true);
    expect(sameEmail('info@example.com', 'sales@example.com')).toBe(false);
  });
});
