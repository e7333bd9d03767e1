import { createHash } from 'node:crypto';
import { ValidateBy, ValidationArguments } from 'class-validator';

/** One key of SECRETS_KEY. */
export interface SecretsKeyEntry {
  keyId: string;
  /** 32 bytes (AES-256). */
  key: Buffer;
}

/** A SECRETS_KEY that cannot be used; the message never holds key material. */
export class SecretsKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretsKeyError';
  }
}

const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const BASE64 = /^[A-Za-z0-9+/_-]+={0,2}$/;
export const SECRETS_KEY_BYTES = 32;

/**
 * The keys of SECRETS_KEY: comma-separated `keyId:base64` entries (standard base64 or base64url,
 * of exactly 32 random bytes; `openssl rand -base64 32`), the key that seals first. A key id is
 * 1-32 characters of A-Z, a-z, 0-9, `_` and `-` and appears once.
 */
export function parseSecretsKey(text: string): SecretsKeyEntry[] {
  const entries = text
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (!entries.length) throw new SecretsKeyError('holds no key (keyId:base64-of-32-bytes,...)');
  const seen = new Set<string>();
  return entries.map((entry, i) => {
    const colon = entry.indexOf(':');
    const keyId = colon < 0 ? '' : entry.slice(0, colon);
    const material = colon < 0 ? entry : entry.slice(colon + 1);
    const where = `entry ${i + 1} of ${entries.length}`;
    if (!KEY_ID.test(keyId))
      throw new SecretsKeyError(
        `${where} has no valid key id: write keyId:base64-of-32-bytes, the id 1-32 characters of A-Z, a-z, 0-9, _ and -`,
      );
    if (seen.has(keyId)) throw new SecretsKeyError(`key id "${keyId}" appears twice`);
    seen.add(keyId);
    const key = BASE64.test(material) ? Buffer.from(material, 'base64') : Buffer.alloc(0);
    if (key.length !== SECRETS_KEY_BYTES)
      throw new SecretsKeyError(
        `key "${keyId}" is not the base64 of ${SECRETS_KEY_BYTES} bytes (${key.length} bytes)`,
      );
    return { keyId, key };
  });
}

/**
 * The key used outside production when SECRETS_KEY is unset (tests, an app started by hand), as
 * INTERNAL_TOKEN is optional there: fixed and public, so production refuses it.
 */
export const DEV_SECRETS_KEY = `dev:${createHash('sha256')
  .update('crm-events development SECRETS_KEY: public, refused when NODE_ENV=production')
  .digest('base64')}`;

const DEV_KEY_BYTES = parseSecretsKey(DEV_SECRETS_KEY)[0]!.key;

/** SECRETS_KEY of a config, or the development key when it is unset (the config rule allows that outside production only). */
export const secretsKeyText = (config: { SECRETS_KEY?: string }): string =>
  config.SECRETS_KEY ?? DEV_SECRETS_KEY;

/** Why SECRETS_KEY is refused, or null. */
export function secretsKeyProblem(value: unknown, production: boolean): string | null {
  if (value === undefined) return production ? 'must be set when NODE_ENV=production' : null;
  if (typeof value !== 'string') return 'must be a string';
  let entries: SecretsKeyEntry[];
  try {
    entries = parseSecretsKey(value);
  } catch (err) {
    return (err as Error).message;
  }
  if (!production) return null;
  for (const { keyId, key } of entries) {
    if (key.equals(DEV_KEY_BYTES))
      return `key "${keyId}" is the public development key, refused when NODE_ENV=production`;
    if (new Set(key).size < 16)
      return `key "${keyId}" has fewer than 16 different bytes: not a random key`;
  }
  return null;
}

/**
 * SECRETS_KEY of a service that keeps secrets sealed (SecretBox): `keyId:base64-of-32-bytes`,
 * comma-separated, the sealing key first. Optional in development and tests (the public
 * DEV_SECRETS_KEY is used); with NODE_ENV=production the process refuses to start without one,
 * with a key that is not 32 bytes, or with the development key. Its value is never printed.
 */
export function SecretsKeyRule(): PropertyDecorator {
  const problem = (value: unknown, args?: ValidationArguments) =>
    secretsKeyProblem(
      value,
      (args?.object as { NODE_ENV?: string } | undefined)?.NODE_ENV === 'production',
    );
  return ValidateBy({
    // "secret": loadConfig never shows the value of a property with this constraint
    name: 'secret',
    validator: {
      validate: (value: unknown, args?: ValidationArguments) => problem(value, args) === null,
      // The first word (the property) is replaced by loadConfig's "environment variable X ...".
      defaultMessage: (args?: ValidationArguments) =>
        `$property ${problem(args?.value, args) ?? 'is invalid'} (keys that seal stored secrets: keyId:base64-of-32-bytes, comma-separated, the sealing key first; generate a key with \`openssl rand -base64 32\`)`,
    },
  });
}
