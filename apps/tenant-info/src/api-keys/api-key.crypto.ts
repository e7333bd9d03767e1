import { createHash, randomBytes } from 'node:crypto';

/** Marks our keys in logs, secret scanners and support tickets. */
export const API_KEY_PREFIX = 'crm_';
/** Characters of a key kept in clear so an operator can tell keys apart (never enough to guess it). */
export const KEY_PREFIX_LENGTH = 10;

/** A new key: `crm_` + 32 random bytes in base64url (256 bits of entropy, 47 characters). */
export function generateApiKey(): string {
  return API_KEY_PREFIX + randomBytes(32).toString('base64url');
}

/**
 * SHA-256 (hex) of a key: what is stored and what the gateway sends to verify. Keys are long random
 * strings, so a fast unsalted hash cannot be reversed by guessing, and it allows a unique index.
 */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function keyPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX_LENGTH);
}
