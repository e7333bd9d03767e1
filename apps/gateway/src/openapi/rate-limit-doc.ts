import type {
  HeaderObject,
  OpenAPIObject,
  OperationObject,
  ReferenceObject,
  ResponseObject,
} from '@nestjs/swagger';
import { resolveRestRoute } from '../routing/services';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

const HEADERS: Record<string, HeaderObject> = {
  RateLimit: {
    description:
      'What is left of each rate-limit policy (draft-ietf-httpapi-ratelimit-headers): `r` requests ' +
      'left, `t` seconds until the current window ends (on a 429: until a request is allowed ' +
      'again). Per API key for keyed calls (REST and /graphql together), per client address for ' +
      'public ones; sent on every answer to a call that was counted (past the key check).',
    schema: { type: 'string' },
    example: '"key";r=42;t=17',
  },
  'RateLimit-Policy': {
    description:
      'The policies that apply: `q` requests in any `w` seconds, counted by all gateway replicas ' +
      'together. "key": KEY_RATE_LIMIT_PER_MINUTE per API key; "public" and "public-burst": ' +
      'PUBLIC_RATE_LIMIT_PER_MINUTE and PUBLIC_RATE_LIMIT_BURST per client address.',
    schema: { type: 'string' },
    example: '"key";q=60000;w=60',
  },
  'Retry-After': {
    description: 'Seconds until a request is allowed again.',
    schema: { type: 'integer', minimum: 1 },
  },
};
const ref = (name: string): ReferenceObject => ({ $ref: `#/components/headers/${name}` });
const TOO_MANY: ResponseObject = {
  description:
    'Rate limit exceeded (gateway): envelope with data null, a message saying when to try again ' +
    'and errors [{ field: "RateLimit", rule: "rateLimit", message }]; Retry-After says when.',
  headers: {
    'Retry-After': ref('Retry-After'),
    RateLimit: ref('RateLimit'),
    'RateLimit-Policy': ref('RateLimit-Policy'),
  },
};
const TOO_MANY_REF: ReferenceObject = { $ref: '#/components/responses/TooManyRequests' };

/**
 * The merged description with the gateway's rate limits on every /v1/crm/** operation: the 429
 * (one shared response; a service's own 429 keeps its text and gets the headers), and RateLimit
 * and RateLimit-Policy on its 2xx answers, as shared headers.
 */
export function withRateLimits(doc: OpenAPIObject): OpenAPIObject {
  const components = (doc.components ??= {});
  const headers = (components.headers ??= {});
  for (const [name, header] of Object.entries(HEADERS)) headers[name] = header;
  (components.responses ??= {}).TooManyRequests = TOO_MANY;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    if (!resolveRestRoute(path)) continue;
    for (const method of METHODS) {
      const operation: OperationObject | undefined = item[method];
      if (operation) limitOperation(operation);
    }
  }
  return doc;
}

function limitOperation(operation: OperationObject): void {
  const responses = (operation.responses ??= {});
  for (const [status, response] of Object.entries(responses)) {
    if (!response || '$ref' in response) continue;
    if (/^2\d\d$/.test(status)) {
      const own = (response.headers ??= {});
      own.RateLimit ??= ref('RateLimit');
      own['RateLimit-Policy'] ??= ref('RateLimit-Policy');
    }
  }
  const existing = responses['429'] as ResponseObject | ReferenceObject | undefined;
  if (!existing) responses['429'] = TOO_MANY_REF;
  else if (!('$ref' in existing)) existing.headers = { ...TOO_MANY.headers, ...existing.headers };
}
