import type { IncomingHttpHeaders } from 'node:http';
import type { AppException } from '@crm/errors';
import type { Language } from '@crm/i18n';
import type { Caller } from '../auth/gateway-auth.service';

/** The context of one GraphQL operation at the gateway: who called, with which headers. */
export interface GatewayGraphQLContext {
  caller: Caller;
  headers: IncomingHttpHeaders;
}

/** Renders an error's message in the caller's language. */
export type Translate = (err: AppException, lang: Language | undefined) => string;
