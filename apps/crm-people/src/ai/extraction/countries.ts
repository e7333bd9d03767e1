/** Country names in the languages signatures are written in, and aliases people use. */
const NAME_LANGUAGES = ['en', 'de', 'fr', 'it', 'es', 'nl'];
const ALIASES: Record<string, string> = {
  usa: 'US',
  'u.s.a': 'US',
  'u.s': 'US',
  us: 'US',
  'united states of america': 'US',
  uk: 'GB',
  'u.k': 'GB',
  'great britain': 'GB',
  england: 'GB',
  scotland: 'GB',
  wales: 'GB',
  brd: 'DE',
  holland: 'NL',
  'the netherlands': 'NL',
  schweiz: 'CH',
  suisse: 'CH',
  svizzera: 'CH',
  österreich: 'AT',
};
/** Top-level domains that name no country, and ccTLDs used as generic ones. */
const GENERIC_TLDS = new Set(['io', 'co', 'ai', 'me', 'tv', 'eu', 'cc', 'ws', 'fm', 'app', 'dev']);

let byName: Map<string, string> | null = null;

const key = (s: string) =>
  s
    .toLowerCase()
    .replace(/[.,;:]+$/, '')
    .replace(/\s+/g, ' ')
    .trim();

/** Every ISO 3166 region code the runtime knows a name for (computed once). */
function names(): Map<string, string> {
  if (byName) return byName;
  byName = new Map(Object.entries(ALIASES));
  const displays = NAME_LANGUAGES.map((l) => new Intl.DisplayNames([l], { type: 'region' }));
  for (let a = 65; a <= 90; a++) {
    for (let b = 65; b <= 90; b++) {
      const code = String.fromCharCode(a, b);
      if (['EU', 'EZ', 'UN', 'ZZ', 'QO'].includes(code) || code.startsWith('X')) continue;
      // Deprecated codes (DD, UK, FX) are shown with the name of their successor.
      if (Intl.getCanonicalLocales(`und-${code}`)[0] !== `und-${code}`) continue;
      for (const d of displays) {
        const name = d.of(code);
        if (name && name !== code && !byName.has(key(name))) byName.set(key(name), code);
      }
    }
  }
  return byName;
}

/** The ISO code of a text that is only a country name ("Deutschland", "USA"), else null. */
export function countryCodeOf(text: string): string | null {
  const k = key(text).replace(/^the /, '');
  if (k.length < 2 || k.length > 40) return null;
  return names().get(k) ?? names().get(`the ${k}`) ?? null;
}

/** The country's name in the caller's language. */
export function countryName(code: string, language: string): string {
  return new Intl.DisplayNames([language], { type: 'region' }).of(code) ?? code;
}

/** The country an e-mail domain points to (`.de` -> DE, `.co.uk` -> GB), if any. */
export function countryOfDomain(domain: string): string | null {
  const tld = domain.toLowerCase().split('.').pop() ?? '';
  if (tld === 'uk') return 'GB';
  if (tld.length !== 2 || GENERIC_TLDS.has(tld)) return null;
  const code = tld.toUpperCase();
  return names().has(key(new Intl.DisplayNames(['en'], { type: 'region' }).of(code) ?? ''))
    ? code
    : null;
}
