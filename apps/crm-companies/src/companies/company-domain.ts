// Domains of companies, shared by the writes (websiteDomain) and C3 (find by domain). Pure.

const WWW = /^www\./;

/** Host of a URL or bare host (`https://www.Example.com/about` -> `example.com`); null if none. */
function hostOf(value: string): string | null {
  const text = value.trim();
  if (!text) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `http://${text}`;
  try {
    const host = new URL(withScheme).hostname.toLowerCase().replace(/\.$/, '');
    return host || null;
  } catch {
    return null;
  }
}

/**
 * `websiteDomain` of a website as stored (`https://www.Example.com/about` or `Example.com`): its
 * host, lower-cased, without a leading `www.`. C3 finds the company by it.
 */
export function websiteDomain(website: string | null | undefined): string | null {
  if (!website) return null;
  const host = hostOf(website);
  return host ? host.replace(WWW, '') || null : null;
}

/** A label: letters, digits, hyphens inside; IDNs arrive as punycode (xn--) from URL parsing. */
const LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;

/**
 * The domain C3 looks for, from what a caller has at hand: a domain (`Example.com`), an e-mail
 * address (`anna@www.example.com`) or a URL (`https://www.example.com/x`). Lower-cased, without
 * `www.`; null when nothing domain-like remains (one label at least, valid characters).
 */
export function lookupDomain(segment: string): string | null {
  const text = segment.trim();
  const at = text.lastIndexOf('@');
  const host = hostOf(at >= 0 ? text.slice(at + 1) : text);
  if (!host) return null;
  const domain = host.replace(WWW, '');
  return domain && domain.split('.').every((l) => LABEL.test(l)) ? domain : null;
}
