import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether `got` (the X-Internal-Token header) is `expected`, in constant time: both are hashed
 * first, so neither the content nor the length of the secret shows in the time taken.
 */
export function internalTokenMatches(got: unknown, expected: string): boolean {
  if (typeof got !== 'string') return false; // missing, or the header sent twice
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(got), digest(expected));
}
