import type { FieldProblem } from '@crm/errors';
import { ModuleName, MODULES } from './tenant-info';

/** Read is the module's GETs and checks that store nothing; write is everything else. */
export type AccessKind = 'read' | 'write';
export type ApiKeyScope = `${ModuleName}:${AccessKind}`;

/** Every scope a key can hold, in MODULES order, read before write. */
export const API_KEY_SCOPES: readonly ApiKeyScope[] = MODULES.flatMap((m) => [
  `${m}:read` as const,
  `${m}:write` as const,
]);

export const scopeOf = (module: ModuleName, kind: AccessKind): ApiKeyScope => `${module}:${kind}`;

/** Whether `scopes` allow `kind` on `module`: write includes read of the same module. */
export function allowsScope(
  scopes: readonly string[],
  module: ModuleName,
  kind: AccessKind,
): boolean {
  return (
    scopes.includes(scopeOf(module, 'write')) ||
    (kind === 'read' && scopes.includes(scopeOf(module, 'read')))
  );
}

/** Known scopes of `names` in API_KEY_SCOPES order; anything else in the data is left out. */
export function knownScopes(names: readonly string[]): ApiKeyScope[] {
  return API_KEY_SCOPES.filter((s) => names.includes(s));
}

/**
 * The rules of an issued key's scopes and expiry that class-validator cannot say with the field
 * named precisely: each unknown or repeated scope by its index (`scopes[2]`), and an expiry that
 * is not in the future at `now`. Shapes (a list of texts, an ISO 8601 instant) are checked by the
 * contract's decorators first; this only looks at values of the right shape.
 */
export function issueApiKeyProblems(
  req: { scopes?: unknown; expiresAt?: unknown },
  now: Date,
): FieldProblem[] {
  const problems: FieldProblem[] = [];
  if (Array.isArray(req.scopes)) {
    const seen = new Set<unknown>();
    req.scopes.forEach((scope: unknown, i) => {
      const field = `scopes[${i}]`;
      if (typeof scope !== 'string' || !API_KEY_SCOPES.includes(scope as ApiKeyScope)) {
        problems.push({ field, rule: 'isIn', args: { constraint1: API_KEY_SCOPES.join(', ') } });
      } else if (seen.has(scope)) {
        problems.push({ field, rule: 'duplicateEntry' });
      }
      seen.add(scope);
    });
  }
  if (typeof req.expiresAt === 'string') {
    const at = Date.parse(req.expiresAt);
    if (!Number.isNaN(at) && at <= now.getTime()) {
      problems.push({ field: 'expiresAt', rule: 'inFuture' });
    }
  }
  return problems;
}
