import type { OpenAPIObject, ParameterObject, ReferenceObject } from '@nestjs/swagger';
import { IDEMPOTENT_BODY_BYTES, KEPT_ANSWER_BYTES } from '../routing/idempotent-calls';
import { IDEMPOTENCY_TTL_MS } from '../routing/idempotency-store';
import { resolveRestRoute } from '../routing/services';

const PARAMETER: ParameterObject = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  schema: { type: 'string', minLength: 1, maxLength: 200 },
  description:
    'Makes the call safe to repeat (1 to 200 visible characters, unique per tenant, e.g. a UUID). ' +
    `The first call with a key is answered by the service and its answer kept for ${IDEMPOTENCY_TTL_MS / 3_600_000} h; ` +
    'a repeat with the same method, path and body gets that answer again, with ' +
    '`Idempotent-Replayed: true`, and changes nothing; while the first is still running, 409 with ' +
    'Retry-After; with another method, path or body, 409 naming this header. The service records ' +
    'the key in the transaction of the change, so a repeat after an answer lost on the way (a ' +
    'timeout, a restart) gets that answer and never changes twice. A 5xx answer is not ' +
    `kept (nothing was changed; the repeat is tried again). Bodies up to ${IDEMPOTENT_BODY_BYTES} bytes (413 beyond); ` +
    `an answer over ${KEPT_ANSWER_BYTES} bytes is not kept, and a repeat gets 409 with its status.`,
};
const REF: ReferenceObject = { $ref: '#/components/parameters/IdempotencyKey' };

/**
 * The merged description with the gateway's Idempotency-Key on every POST it makes idempotent
 * (idempotencyKeyOf: keyed, not public), as one shared parameter.
 */
export function withIdempotencyKeys(doc: OpenAPIObject): OpenAPIObject {
  const components = (doc.components ??= {});
  (components.parameters ??= {}).IdempotencyKey = PARAMETER;
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    const post = item.post;
    const route = resolveRestRoute(path);
    if (!post || !route || route.isPublic) continue;
    const parameters = (post.parameters ??= []);
    const named = (p: ParameterObject | ReferenceObject) =>
      '$ref' in p ? p.$ref === REF.$ref : p.name.toLowerCase() === 'idempotency-key';
    if (!parameters.some(named)) parameters.push(REF);
  }
  return doc;
}
