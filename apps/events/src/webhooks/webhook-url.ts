import type { FieldProblem } from '@crm/errors';
import { ForbiddenAddressError, hostOf, resolvePublic } from './address-guard';

/** The longest URL stored (WebhookEndpoint.url). */
export const URL_MAX = 2000;

/**
 * The URL of an endpoint, checked: https (http too where private addresses are allowed, for tests
 * and closed networks), no user info, and, unless allowed, a host that resolves to public
 * addresses only. Answers the normalised URL or the problem, named for `field`.
 */
export async function checkEndpointUrl(
  raw: string,
  allowPrivate: boolean,
  field = 'url',
): Promise<{ url: string } | { problem: FieldProblem }> {
  const problem = (rule: string, args: FieldProblem['args'] = {}) => ({
    problem: { field, rule, args, messageKey: `webhooks.problems.${rule}` },
  });
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return problem('url');
  }
  const schemes = allowPrivate ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(url.protocol)) return problem('httpsUrl');
  if (url.username || url.password) return problem('urlCredentials');
  url.hash = '';
  // Normalising percent-encodes (one `ä` becomes six characters): the stored form must fit.
  if (url.href.length > URL_MAX) return problem('urlTooLong', { max: URL_MAX });
  if (!allowPrivate) {
    try {
      await resolvePublic(hostOf(url));
    } catch (err) {
      if (!(err instanceof ForbiddenAddressError)) throw err;
      return problem(err.reason, { host: err.host, address: err.address ?? '' });
    }
  }
  return { url: url.href };
}
