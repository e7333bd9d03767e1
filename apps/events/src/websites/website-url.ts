/**
 * The normalised form of a portal's url, unique across all tenants (API.md W3): the same portal
 * written differently must clash, so `https://WWW.Example.com:443/events/` and
 * `http://example.com/events` are one key, `example.com/events`.
 *
 * - scheme ignored (http and https name the same portal);
 * - host lower case, in its ASCII (punycode) form, a leading `www.` dropped (a portal and its
 *   www. alias are one site; otherwise another tenant could claim the alias);
 * - the scheme's default port dropped, any other port kept (`example.com:8080/x`);
 * - the path kept as written (paths are case sensitive), percent-encoding normalised by the URL
 *   parser, trailing slashes dropped;
 * - query and fragment are not part of a portal's address: refused on create and update, ignored
 *   on the public lookup (W10), where a portal may send its full location.
 */
export interface ParsedWebsiteUrl {
  key: string;
  hasQueryOrFragment: boolean;
}

/** Longest url (and so key) accepted (Website.url is VARCHAR(500)). */
export const WEBSITE_URL_MAX = 500;

/** Null when `raw` is not an absolute http(s) url with a host and without credentials. */
export function parseWebsiteUrl(raw: string): ParsedWebsiteUrl | null {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (!url.hostname || url.username || url.password) return null;
  const host = url.hostname
    .toLowerCase()
    .replace(/^www\./, '')
    .replace(/\.$/, '');
  if (!host) return null;
  // URL already drops the scheme's default port (url.port is '' for https://x:443).
  const port = url.port ? `:${url.port}` : '';
  const path = url.pathname.replace(/\/+$/, '');
  return {
    key: `${host}${port}${path}`,
    hasQueryOrFragment:
      url.search !== '' || url.hash !== '' || raw.includes('?') || raw.includes('#'),
  };
}

/** The key of a url given to the public lookup (W10): query and fragment ignored. */
export const lookupKey = (raw: string): string | null => parseWebsiteUrl(raw)?.key ?? null;
