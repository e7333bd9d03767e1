import createClient, { type Client, type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';

/** Who calls, for which tenant: the headers every /v1/crm call needs (see the README). */
export interface ApiClientOptions {
  /** The gateway, e.g. http://127.0.0.1:3000 (paths start with /v1/crm or /v1/admin). */
  baseUrl: string;
  /** X-Service-TenantId */
  tenantId: string;
  /** The tenant's API key (Authorization: Bearer); public operations need none. */
  apiKey?: string;
  /** X-Integration-Name */
  integrationName: string;
  /** X-Integration-Provider */
  integrationProvider: string;
  /** X-Integration-Contact */
  integrationContact?: string;
  /** Accept-Language: the language of messages, mails and exports (en, de). */
  language?: string;
  /** Another fetch (tests, retries, a proxy). */
  fetch?: ClientOptions['fetch'];
}

/** A client typed by the merged OpenAPI description: paths, parameters, bodies and answers. */
export type ApiClient = Client<paths>;

/**
 * An openapi-fetch client with the integration headers set. Every answer is `{ data, error,
 * response }`: `data` the envelope of a success, `error` the envelope of a failure (400 with
 * `errors` naming field and rule, 404, 409, ...).
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  const headers: Record<string, string> = {
    'X-Service-TenantId': options.tenantId,
    'X-Integration-Name': options.integrationName,
    'X-Integration-Provider': options.integrationProvider,
  };
  if (options.apiKey) headers.Authorization = `Bearer ${options.apiKey}`;
  if (options.integrationContact) headers['X-Integration-Contact'] = options.integrationContact;
  if (options.language) headers['Accept-Language'] = options.language;
  return createClient<paths>({
    baseUrl: options.baseUrl.replace(/\/+$/, ''),
    headers,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
}
