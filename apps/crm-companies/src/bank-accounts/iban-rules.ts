import {
  electronicFormatIBAN,
  friendlyFormatIBAN,
  getCountrySpecifications,
  validateBIC,
  validateIBAN,
  ValidationErrorsIBAN,
} from 'ibantools';
import type { FieldProblem } from '@crm/errors';

/** i18n prefix of the bank account rules (bank-accounts.json, `problems`). */
const PROBLEMS = 'bank-accounts.problems';

const problem = (field: string, rule: string, args: FieldProblem['args'] = {}): FieldProblem => ({
  field,
  rule,
  args,
  messageKey: `${PROBLEMS}.${rule}`,
});

/** What a client may type: letters, digits and blanks (the paper format groups by four). */
const IBAN_CHARS = /^[A-Za-z0-9 ]+$/;
const BIC_CHARS = /^[A-Za-z0-9 ]+$/;

/** ibantools' findings, most basic first: one problem per field, the one to fix first. */
const IBAN_RULES: [ValidationErrorsIBAN, string][] = [
  [ValidationErrorsIBAN.NoIBANProvided, 'isNotEmpty'],
  [ValidationErrorsIBAN.NoIBANCountry, 'ibanCountry'],
  [ValidationErrorsIBAN.WrongBBANLength, 'ibanLength'],
  [ValidationErrorsIBAN.ChecksumNotNumber, 'ibanFormat'],
  [ValidationErrorsIBAN.WrongBBANFormat, 'ibanFormat'],
  [ValidationErrorsIBAN.WrongIBANChecksum, 'ibanChecksum'],
  [ValidationErrorsIBAN.WrongAccountBankBranchChecksum, 'ibanBankChecksum'],
  [ValidationErrorsIBAN.QRIBANNotAllowed, 'ibanFormat'],
];

/**
 * Countries whose banks use the BIC country of another IBAN country: the French overseas
 * departments and territories and Monaco bank with French IBANs, the Crown Dependencies with
 * British ones, the Åland Islands with Finnish ones. Both directions are accepted.
 */
const SHARED_BANKING: string[][] = [
  ['FR', 'GF', 'GP', 'MQ', 'RE', 'YT', 'PM', 'BL', 'MF', 'NC', 'PF', 'WF', 'TF', 'MC'],
  ['GB', 'JE', 'GG', 'IM'],
  ['FI', 'AX'],
];

export function sameBankingArea(ibanCountry: string, bicCountry: string): boolean {
  return (
    ibanCountry === bicCountry ||
    SHARED_BANKING.some((area) => area.includes(ibanCountry) && area.includes(bicCountry))
  );
}

export interface CheckedIban {
  /** Electronic format: upper case, no blanks (as stored). */
  iban: string | null;
  problem: FieldProblem | null;
}

/** Normalizes and checks an IBAN (ISO 13616: country, length, format, check digits). */
export function checkIban(raw: string, field = 'iban'): CheckedIban {
  const trimmed = raw.trim();
  if (!trimmed) return { iban: null, problem: problem(field, 'isNotEmpty') };
  if (!IBAN_CHARS.test(trimmed) || trimmed.length > 50) {
    return { iban: null, problem: problem(field, 'iban') };
  }
  const iban = electronicFormatIBAN(trimmed) ?? '';
  const { valid, errorCodes } = validateIBAN(iban);
  if (valid) return { iban, problem: null };
  const country = iban.slice(0, 2);
  const spec = getCountrySpecifications()[country];
  const rule = IBAN_RULES.find(([code]) => errorCodes.includes(code))?.[1] ?? 'iban';
  return {
    iban: null,
    problem: problem(field, rule, {
      country,
      length: spec?.chars ?? null,
    }),
  };
}

export interface CheckedBic {
  /** Upper case, no blanks (as stored). */
  bic: string | null;
  problem: FieldProblem | null;
}

/** Normalizes and checks a BIC (ISO 9362: 8 or 11 characters, a known country). */
export function checkBic(raw: string, field = 'bic'): CheckedBic {
  const trimmed = raw.trim();
  if (!trimmed) return { bic: null, problem: problem(field, 'isNotEmpty') };
  const bic = trimmed.replace(/ /g, '').toUpperCase();
  if (!BIC_CHARS.test(trimmed) || !validateBIC(bic).valid) {
    return { bic: null, problem: problem(field, 'bic') };
  }
  return { bic, problem: null };
}

/** The BIC must be of the IBAN's country (or of one banking with the same IBAN country). */
export function bicCountryProblem(iban: string, bic: string, field = 'bic'): FieldProblem | null {
  const ibanCountry = iban.slice(0, 2);
  const bicCountry = bic.slice(4, 6);
  return sameBankingArea(ibanCountry, bicCountry)
    ? null
    : problem(field, 'bicCountry', { bicCountry, ibanCountry });
}

/** The paper format: groups of four, e.g. DE89 3704 0044 0532 0130 00. */
export function formatIban(iban: string): string {
  return friendlyFormatIBAN(iban) ?? iban;
}
