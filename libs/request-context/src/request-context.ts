import { AppException, ErrorCode, isUuid } from '@crm/errors';
import { Language, resolveLanguage } from '@crm/i18n';
import { CALLER_ID_HEADER, REQUIRED_HEADERS } from './headers';

/** Who is calling, for which tenant, in which language: read once per request from the headers. */
export interface RequestContext {
  tenantId: string;
  integrationName: string;
  integrationProvider: string;
  integrationContact: string | null;
  language: Language;
  /** Id of the API key the gateway authenticated, when the call came through it. */
  callerId: string | null;
}

type HeaderBag = Record<string, string | string[] | undefined>;

function header(headers: HeaderBag, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  const s = Array.isArray(v) ? v[0] : v;
  return s?.trim() ? s.trim() : undefined;
}

/** Throws a 400 naming the first missing or empty required header. */
export function readRequestContext(headers: HeaderBag): RequestContext {
  for (const name of REQUIRED_HEADERS) {
    if (!header(headers, name)) {
      throw new AppException(ErrorCode.BAD_REQUEST, 'errors.header.missing', { header: name });
    }
  }
  const callerId = header(headers, CALLER_ID_HEADER);
  return {
    tenantId: header(headers, 'X-Service-TenantId')!,
    integrationName: header(headers, 'X-Integration-Name')!,
    integrationProvider: header(headers, 'X-Integration-Provider')!,
    integrationContact: header(headers, 'X-Integration-Contact') ?? null,
    language: resolveLanguage(header(headers, 'Accept-Language')),
    callerId: callerId && isUuid(callerId) ? callerId : null,
  };
}
