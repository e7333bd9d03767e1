import { electronicFormatIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import type { FieldProblem } from '@crm/errors';

// Checks of the settings object (ES2/ES3) that class-validator cannot do: IANA zones and ISO 4217
// codes as the runtime's Intl knows them, IBAN and BIC by ibantools.

const problem = (field: string, rule: string, args: FieldProblem['args'] = {}): FieldProblem => ({
  field,
  rule,
  args,
  messageKey: `settings.problems.${rule}`,
});

/** Area/Location names only (no offsets such as +01:00, which are no IANA zone). */
const ZONE_SHAPE = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

let zones: Map<string, string> | undefined;

/**
 * The IANA zone as stored: null when the runtime does not know it; the spelling of Intl's list
 * when it differs only in case (`europe/berlin` -> `Europe/Berlin`); otherwise as given, so a
 * current name such as Asia/Kolkata is not turned into the older alias ICU resolves it to.
 */
export function canonicalTimeZone(zone: string): string | null {
  if (!ZONE_SHAPE.test(zone)) return null;
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat('en', { timeZone: zone }).resolvedOptions().timeZone;
  } catch {
    return null;
  }
  zones ??= new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));
  const listed = zones.get(zone.toLowerCase());
  if (listed) return listed;
  return resolved.toLowerCase() === zone.toLowerCase() ? resolved : zone;
}

let currencies: Set<string> | undefined;
/** The ISO 4217 codes the runtime knows (Intl.supportedValuesOf, ICU's list). */
export function isCurrency(code: string): boolean {
  currencies ??= new Set(Intl.supportedValuesOf('currency'));
  return /^[A-Z]{3}$/.test(code) && currencies.has(code);
}

export function timeZoneProblem(field: string, zone: string): FieldProblem | null {
  return canonicalTimeZone(zone) ? null : problem(field, 'timeZone', { value: zone });
}

export function currencyProblem(field: string, code: string): FieldProblem | null {
  return isCurrency(code.toUpperCase()) ? null : problem(field, 'currency', { value: code });
}

/** The IBAN as stored (electronic format: no blanks, upper case), or a problem. */
export function checkIban(
  field: string,
  iban: string,
): { value: string | null; problem: FieldProblem | null } {
  const value = electronicFormatIBAN(iban) ?? '';
  return isValidIBAN(value)
    ? { value, problem: null }
    : { value: null, problem: problem(field, 'iban') };
}

/** The BIC as stored (upper case, no blanks), or a problem. */
export function checkBic(
  field: string,
  bic: string,
): { value: string | null; problem: FieldProblem | null } {
  const value = bic.replace(/\s+/g, '').toUpperCase();
  return isValidBIC(value)
    ? { value, problem: null }
    : { value: null, problem: problem(field, 'bic') };
}

export { problem as settingsProblem };
