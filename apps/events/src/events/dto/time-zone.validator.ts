import { registerDecorator, ValidationOptions } from 'class-validator';

let zones: Set<string> | null = null;

/** Whether `zone` is an IANA time zone this runtime knows (Intl), e.g. Europe/Berlin or UTC. */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== 'string' || !zone) return false;
  zones ??= new Set(Intl.supportedValuesOf('timeZone'));
  if (zones.has(zone)) return true;
  if (zone === 'UTC') return true;
  // supportedValuesOf lists canonical names only; links (Asia/Calcutta) are valid too, spelt as
  // the database spells them (Intl would also take europe/berlin, which VTIMEZONE would not)
  if (!/^[A-Z][A-Za-z0-9_+-]*(\/[A-Z0-9][A-Za-z0-9_+-]*)+$/.test(zone)) return false;
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** class-validator rule `isTimeZone`: an IANA time zone name. */
export function IsTimeZone(options?: ValidationOptions) {
  return (target: object, propertyName: string) =>
    registerDecorator({
      name: 'isTimeZone',
      target: target.constructor,
      propertyName,
      options,
      validator: {
        validate: (value: unknown) => isTimeZone(value),
        defaultMessage: () => '$property must be an IANA time zone such as Europe/Berlin',
      },
    });
}
