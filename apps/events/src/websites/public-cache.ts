import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { matchesEtag } from '@crm/storage';

/**
 * Cache headers of a public answer (W8-W10): a weak ETag over the data (the envelope around it
 * carries a timestamp, so the bytes differ while the meaning does not), `Cache-Control: public`
 * and `Vary` on the tenant header (it scopes the answer) and the language. A client holding the
 * current version gets 304 without a body (undefined here).
 */
export function cachedPublic<T>(
  res: FastifyReply,
  data: T,
  ifNoneMatch: string | undefined,
  maxAgeS: number,
): T | undefined {
  const etag = `W/"${createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 32)}"`;
  res.header('ETag', etag);
  res.header('Cache-Control', `public, max-age=${maxAgeS}`);
  res.header('Vary', 'X-Service-TenantId, Accept-Language');
  if (matchesEtag(ifNoneMatch, etag)) {
    res.status(304);
    return undefined;
  }
  return data;
}
