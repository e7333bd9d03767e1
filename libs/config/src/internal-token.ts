import { ValidateBy, ValidationArguments } from 'class-validator';

/**
 * Shortest secret accepted with NODE_ENV=production: what `npm start` and compose generate
 * (24 random bytes, 32 characters of base64url).
 */
export const PRODUCTION_SECRET_MIN = 32;
/** Shortest INTERNAL_TOKEN accepted in production (kept for callers of the older name). */
export const INTERNAL_TOKEN_MIN = PRODUCTION_SECRET_MIN;

/** Words of the placeholders in compose files, manifests' examples and docs. */
const PLACEHOLDER = /change[-_ ]?me|example|placeholder|replace[-_ ]?me|default|insecure/i;

const isProduction = (args: ValidationArguments) =>
  (args.object as { NODE_ENV?: string }).NODE_ENV === 'production';

/** Why a production secret is refused, or null when it is fine. */
export function productionSecretProblem(value: string): string | null {
  if (value.length < PRODUCTION_SECRET_MIN)
    return `must be a secret of at least ${PRODUCTION_SECRET_MIN} characters when NODE_ENV=production`;
  if (PLACEHOLDER.test(value))
    return 'looks like a placeholder (change-me, example, default ...), refused when NODE_ENV=production';
  if (new Set(value).size < 8) return 'has fewer than 8 different characters: not a random secret';
  return null;
}

interface SecretOptions {
  /** What the secret is for, shown in the message. */
  role: string;
  /** Outside production: whether it may be unset, and its shortest length when set. */
  optionalOutsideProduction: boolean;
  minOutsideProduction: number;
}

const HOW = 'generate one with `openssl rand -base64 24`';

function secretRule(opts: SecretOptions): PropertyDecorator {
  const problem = (value: unknown, args?: ValidationArguments): string | null => {
    const production = args ? isProduction(args) : false;
    if (value === undefined)
      return production
        ? 'must be set when NODE_ENV=production'
        : opts.optionalOutsideProduction
          ? null
          : 'must be set';
    if (typeof value !== 'string') return 'must be a string';
    if (production) return productionSecretProblem(value);
    return value.length < opts.minOutsideProduction
      ? `must have at least ${opts.minOutsideProduction} characters`
      : null;
  };
  return ValidateBy({
    name: 'secret',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => problem(value, args) === null,
      // The first word (the property) is replaced by loadConfig's "environment variable X ...".
      defaultMessage: (args?: ValidationArguments) =>
        `$property ${problem(args?.value, args) ?? 'is invalid'} (${opts.role}; ${HOW})`,
    },
  });
}

/**
 * The shared secret the gateway sends to the services in X-Internal-Token. Optional in development
 * and tests (a service without it serves anyone who reaches its port); with NODE_ENV=production the
 * process refuses to start without a random one of at least PRODUCTION_SECRET_MIN characters, so a
 * deployment can neither leave the services open nor keep a documented default.
 */
export function InternalTokenRule(): PropertyDecorator {
  return secretRule({
    role: 'the gateway sends it to every service in X-Internal-Token; services refuse calls without it',
    optionalOutsideProduction: true,
    minOutsideProduction: 1,
  });
}

/**
 * The operator credential of the gateway's admin API (tenants, keys, tariffs). Always required;
 * with NODE_ENV=production a short, repetitive or placeholder value stops the start: a published
 * gateway port with a known token would let anyone create tenants and keys.
 */
export function AdminTokenRule(): PropertyDecorator {
  return secretRule({
    role: 'operator credential of the admin API',
    optionalOutsideProduction: false,
    minOutsideProduction: 16,
  });
}
