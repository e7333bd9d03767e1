import type { AccessKind } from '@crm/messaging';

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** POSTs that check or show what a change would do and store nothing, by their contract. */
const CHECK_ONLY_POST = /\/(?:validate|preview)$/;

/**
 * Whether a REST call reads or writes, for the key's scopes: GET, HEAD and OPTIONS read, and so
 * does a POST to a path ending in `/validate` or `/preview`; anything else writes (an unknown
 * method or an unusual spelling of a path counts as a write, the safe side).
 */
export function accessOf(method: string | undefined, url: string): AccessKind {
  const verb = method?.toUpperCase();
  if (verb && READ_METHODS.has(verb)) return 'read';
  if (verb === 'POST' && CHECK_ONLY_POST.test(url.split('?')[0])) return 'read';
  return 'write';
}
