import { AppException, ErrorCode } from '@crm/errors';
import type { RateDecision, RatePolicy } from './rate-limiter';

/**
 * The headers of draft-ietf-httpapi-ratelimit-headers (-08 and later: Structured Fields lists of
 * named policies, the syntax the draft has kept since; earlier drafts' `RateLimit-Limit`,
 * `-Remaining` and `-Reset` are not sent):
 *
 *   RateLimit-Policy: "key";q=600;w=60
 *   RateLimit: "key";r=42;t=17
 *
 * q: the quota, w: its window in seconds; r: requests left, t: seconds until the current window
 * ends (on a 429: until a request is allowed again, as Retry-After).
 */
export const RATE_LIMIT_POLICY_HEADER = 'RateLimit-Policy';
export const RATE_LIMIT_HEADER = 'RateLimit';

export function policyHeader(policies: readonly RatePolicy[]): string {
  return policies.map((p) => `"${p.name}";q=${p.quota};w=${p.windowSeconds}`).join(', ');
}

export function rateLimitHeaders(decision: RateDecision): Record<string, string> {
  const headers: Record<string, string> = {
    [RATE_LIMIT_POLICY_HEADER]: policyHeader(decision.states.map((s) => s.policy)),
    [RATE_LIMIT_HEADER]: decision.states
      .map((s) => `"${s.policy.name}";r=${s.remaining};t=${s.resetSeconds}`)
      .join(', '),
  };
  if (!decision.allowed) headers['Retry-After'] = String(decision.retryAfterSeconds);
  return headers;
}

/** The 429 of a refused call: the policy that refused it and when to try again. */
export function rateLimited(decision: RateDecision): AppException {
  const refused =
    decision.states.find((s) => s.remaining === 0 && s.resetSeconds >= decision.retryAfterSeconds)
      ?.policy ?? decision.states[0].policy;
  const args = {
    policy: refused.name,
    quota: refused.quota,
    window: refused.windowSeconds,
    seconds: decision.retryAfterSeconds,
  };
  const messageKey = 'gateway.rateLimit.exceeded';
  return new AppException(ErrorCode.TOO_MANY_REQUESTS, messageKey, args, [
    { field: RATE_LIMIT_HEADER, rule: 'rateLimit', args, messageKey },
  ]);
}
