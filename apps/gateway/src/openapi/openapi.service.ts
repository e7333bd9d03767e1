import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { createHash } from 'node:crypto';
import { INTERNAL_TOKEN_HEADER } from '@crm/request-context';
import { GATEWAY_CONFIG, GatewayConfig, serviceUrl } from '../config';
import { SERVICE_NAMES, ServiceName } from '../routing/services';
import { withIdempotencyKeys } from './idempotency-doc';
import { withRateLimits } from './rate-limit-doc';
import { mergeOpenApi, ServiceDocument } from './openapi-merge';

export const SERVICE_OPENAPI_PATH = '/v1/crm/openapi.json';
const FETCH_TIMEOUT_MS = 3000;

/** The last good copy of one service's description and what its server said it was. */
interface Part {
  doc: OpenAPIObject;
  /** The service's ETag, sent back as If-None-Match (a 304 keeps the copy). */
  etag: string | null;
  /** Hash of the body, for services answering without an ETag. */
  sha256: string;
}

/**
 * The merged OpenAPI description: every reachable service's plus the gateway's admin API.
 *
 * Kept in memory, not fetched per request. The first request waits for the services; after that
 * a request answers from the cache at once and, when the last check is older than
 * OPENAPI_REFRESH_MS, starts one revalidation in the background (concurrent requests share it):
 * each service is asked with If-None-Match, a 304 or the same body keeps its part, a new body
 * replaces it and the document is merged again. A service that is down or answers nonsense keeps
 * its last good copy (one that never answered stays out until it does).
 */
@Injectable()
export class OpenApiService {
  private readonly logger = new Logger('OpenApi');
  private own: OpenAPIObject | null = null;
  private readonly parts = new Map<ServiceName, Part>();
  /** Services whose last fetch failed (their failure is logged once, not every refresh). */
  private readonly failing = new Set<ServiceName>();
  private document: OpenAPIObject | null = null;
  private checkedAt = 0;
  private refreshing: Promise<void> | null = null;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /** The gateway's own description (admin paths), built once the app exists. */
  useOwnDocument(doc: OpenAPIObject): void {
    this.own = doc;
    this.document = null;
  }

  async merged(): Promise<OpenAPIObject> {
    if (!this.document) await this.refresh();
    else if (Date.now() - this.checkedAt >= this.config.OPENAPI_REFRESH_MS) void this.refresh();
    return this.document!;
  }

  /** Revalidates every service's part (one run at a time) and merges again when one changed. */
  refresh(): Promise<void> {
    this.refreshing ??= (async () => {
      try {
        const changed = await Promise.all(SERVICE_NAMES.map((s) => this.revalidate(s)));
        this.checkedAt = Date.now();
        if (!this.document || changed.some(Boolean)) this.document = this.merge();
      } finally {
        this.refreshing = null;
      }
    })();
    return this.refreshing;
  }

  private merge(): OpenAPIObject {
    const parts: ServiceDocument[] = [];
    for (const service of SERVICE_NAMES) {
      const part = this.parts.get(service);
      if (part) parts.push({ service, doc: part.doc });
    }
    return withRateLimits(
      withIdempotencyKeys(
        mergeOpenApi(
          this.own ?? { openapi: '3.0.0', info: { title: 'CRM API', version: '1.0.0' }, paths: {} },
          parts,
          (m) => this.logger.warn(m),
        ),
      ),
    );
  }

  /** Whether the service's part changed; a failure keeps the last good copy (and is logged). */
  private async revalidate(service: ServiceName): Promise<boolean> {
    const url = `${serviceUrl(this.config, service)}${SERVICE_OPENAPI_PATH}`;
    const known = this.parts.get(service);
    const headers: Record<string, string> = {};
    if (this.config.INTERNAL_TOKEN) headers[INTERNAL_TOKEN_HEADER] = this.config.INTERNAL_TOKEN;
    if (known?.etag) headers['If-None-Match'] = known.etag;
    try {
      const res = await fetch(url, { headers, signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) });
      if (res.status === 304 && known) return this.recovered(service, false);
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const text = await res.text();
      const sha256 = createHash('sha256').update(text).digest('hex');
      const etag = res.headers.get('etag');
      if (known && known.sha256 === sha256) {
        known.etag = etag;
        return this.recovered(service, false);
      }
      const doc = JSON.parse(text) as OpenAPIObject;
      if (!doc || typeof doc !== 'object' || typeof doc.paths !== 'object' || !doc.paths) {
        throw new Error('not an OpenAPI document');
      }
      this.parts.set(service, { doc, etag, sha256 });
      return this.recovered(service, true);
    } catch (err) {
      if (!this.failing.has(service)) {
        this.failing.add(service);
        const kept = known ? 'last good copy kept' : 'left out';
        this.logger.warn(`OpenAPI of ${service} ${kept} (${url}: ${(err as Error).message})`);
      }
      return false;
    }
  }

  private recovered(service: ServiceName, changed: boolean): boolean {
    if (this.failing.delete(service)) this.logger.log(`OpenAPI of ${service} answers again`);
    return changed;
  }
}
