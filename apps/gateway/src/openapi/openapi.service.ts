import { Inject, Injectable, Logger } from '@nestjs/common';
import type { OpenAPIObject } from '@nestjs/swagger';
import { INTERNAL_TOKEN_HEADER } from '@crm/request-context';
import { GATEWAY_CONFIG, GatewayConfig, serviceUrl } from '../config';
import { SERVICE_NAMES, ServiceName } from '../routing/services';
import { mergeOpenApi, ServiceDocument } from './openapi-merge';

export const SERVICE_OPENAPI_PATH = '/v1/crm/openapi.json';
const FETCH_TIMEOUT_MS = 3000;

/** The merged OpenAPI description: every reachable service's plus the gateway's admin API. */
@Injectable()
export class OpenApiService {
  private readonly logger = new Logger('OpenApi');
  private own: OpenAPIObject | null = null;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /** The gateway's own description (admin paths), built once the app exists. */
  useOwnDocument(doc: OpenAPIObject): void {
    this.own = doc;
  }

  async merged(): Promise<OpenAPIObject> {
    const parts = await Promise.all(SERVICE_NAMES.map((s) => this.fetchService(s)));
    return mergeOpenApi(
      this.own ?? { openapi: '3.0.0', info: { title: 'CRM API', version: '1.0.0' }, paths: {} },
      parts.filter((p): p is ServiceDocument => p !== null),
      (m) => this.logger.warn(m),
    );
  }

  /** A service that is down or answers nonsense is left out (and logged), never an error. */
  private async fetchService(service: ServiceName): Promise<ServiceDocument | null> {
    const url = `${serviceUrl(this.config, service)}${SERVICE_OPENAPI_PATH}`;
    try {
      const res = await fetch(url, {
        headers: this.config.INTERNAL_TOKEN
          ? { [INTERNAL_TOKEN_HEADER]: this.config.INTERNAL_TOKEN }
          : {},
        signal: AbortSignal.timeout(FETCH_TIMEOUT_MS),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const doc = (await res.json()) as OpenAPIObject;
      if (!doc || typeof doc !== 'object' || typeof doc.paths !== 'object') {
        throw new Error('not an OpenAPI document');
      }
      return { service, doc };
    } catch (err) {
      this.logger.warn(`OpenAPI of ${service} left out (${url}: ${(err as Error).message})`);
      return null;
    }
  }
}
