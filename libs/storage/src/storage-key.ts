import { InvalidStorageKeyError } from './file-storage';

/** First segment of every key: the tenant's folder follows it. */
export const TENANTS_ROOT = 'tenants';

/**
 * One segment as a caller may name it: letters, digits, `.`, `_`, `-`, not starting with a dot
 * (dot names are the storage's own: temporary files and metadata) and at most 200 characters.
 */
const SEGMENT = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}$/;
/** A segment as stored: the same, plus the `%XX` escapes of an encoded tenant id. */
const STORED_SEGMENT = /^[A-Za-z0-9_%-][A-Za-z0-9._%-]{0,599}$/;
const SAFE_CHAR = /[A-Za-z0-9._-]/;

/**
 * A tenant id as one path segment. Every character outside [A-Za-z0-9._-] (and a leading dot) is
 * percent-encoded as UTF-8, `%` included, so two different ids never share a folder.
 */
export function encodeTenantSegment(tenantId: string): string {
  if (!tenantId) throw new InvalidStorageKeyError(tenantId, 'the tenant id is empty');
  const out = [...tenantId]
    .map((ch, i) =>
      SAFE_CHAR.test(ch) && !(i === 0 && ch === '.')
        ? ch
        : [...Buffer.from(ch, 'utf8')]
            .map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`)
            .join(''),
    )
    .join('');
  if (out.length > 600) throw new InvalidStorageKeyError(tenantId, 'the tenant id is too long');
  return out;
}

/**
 * The key of an object of one tenant: `tenants/<tenant>/<segments...>`. Segments are checked,
 * never escaped, so a key cannot name a parent folder (`..`) or a path separator.
 */
export function storageKey(tenantId: string, ...segments: string[]): string {
  for (const s of segments) {
    if (!SEGMENT.test(s)) {
      throw new InvalidStorageKeyError(s, 'a segment must match [A-Za-z0-9_-][A-Za-z0-9._-]*');
    }
  }
  return [TENANTS_ROOT, encodeTenantSegment(tenantId), ...segments].join('/');
}

/**
 * Checks a key (or prefix) handed to a storage: `tenants/<tenant>/...` with at least
 * `minSegments` segments in all, each a plain name. Returns the segments.
 */
export function parseStorageKey(key: string, minSegments = 3): string[] {
  if (typeof key !== 'string' || key.length > 2000) {
    throw new InvalidStorageKeyError(String(key), 'not a string of at most 2000 characters');
  }
  const segments = key.split('/');
  if (segments[0] !== TENANTS_ROOT) {
    throw new InvalidStorageKeyError(key, `must start with ${TENANTS_ROOT}/<tenant>/`);
  }
  if (segments.length < minSegments) {
    throw new InvalidStorageKeyError(key, `needs at least ${minSegments} segments`);
  }
  for (const s of segments) {
    if (!STORED_SEGMENT.test(s)) throw new InvalidStorageKeyError(key, `bad segment "${s}"`);
  }
  return segments;
}
