import { bicCountryProblem, checkBic, checkIban, formatIban, sameBankingArea } from './iban-rules';

describe('checkIban', () => {
  it('normalizes the paper format to the electronic one', () => {
    expect(checkIban(' de89 3704 0044 0532 0130 00 ')).toEqual({
      iban: 'DE89370400440532013000',
      problem: null,
    });
    expect(checkIban('GB29NWBK60161331926819').iban).toBe('GB29NWBK60161331926819');
  });

  it.each([
    ['', 'isNotEmpty'],
    ['DE89-3704-0044-0532-0130-00', 'iban'],
    ['DE89/370400440532013000', 'iban'],
    ['XX89370400440532013000', 'ibanCountry'],
    ['DE8937040044053201300', 'ibanLength'],
    ['DE89370400440532013001', 'ibanChecksum'],
    ['GB29NWBK6016133192681A', 'ibanFormat'],
  ])('%j breaks %s', (raw, rule) => {
    const checked = checkIban(raw);
    expect(checked.iban).toBeNull();
    expect(checked.problem).toMatchObject({
      field: 'iban',
      rule,
      messageKey: `bank-accounts.problems.${rule}`,
    });
  });

  it('names the country and its IBAN length for a length problem', () => {
    expect(checkIban('DE8937040044053201300').problem?.args).toEqual({
      country: 'DE',
      length: 22,
    });
  });
});

describe('checkBic', () => {
  it('upper-cases and accepts 8 or 11 characters', () => {
    expect(checkBic('deutdeff')).toEqual({ bic: 'DEUTDEFF', problem: null });
    expect(checkBic('DEUT DE FF 500')).toEqual({ bic: 'DEUTDEFF500', problem: null });
  });

  it.each(['DEUTDEF', 'DEUTXXFF', 'DEUT-DEFF', '12345678'])('refuses %j', (raw) => {
    expect(checkBic(raw).problem).toMatchObject({ field: 'bic', rule: 'bic' });
  });
});

describe('bicCountryProblem', () => {
  it("accepts a BIC of the IBAN's country and of one banking with it", () => {
    expect(bicCountryProblem('DE89370400440532013000', 'DEUTDEFF')).toBeNull();
    expect(sameBankingArea('FR', 'MC')).toBe(true);
    expect(sameBankingArea('GB', 'JE')).toBe(true);
  });

  it('refuses a BIC of another country, naming both', () => {
    expect(bicCountryProblem('DE89370400440532013000', 'BNPAFRPP')).toMatchObject({
      field: 'bic',
      rule: 'bicCountry',
      args: { bicCountry: 'FR', ibanCountry: 'DE' },
    });
  });
});

it('formatIban groups by four', () => {
  expect(formatIban('DE89370400440532013000')).toBe('DE89 3704 0044 0532 0130 00');
});
