export interface NameParts {
  salutation: string | null;
  title: string | null;
  firstname: string | null;
  lastname: string | null;
}

const SALUTATIONS: [RegExp, string][] = [
  [/^herrn?$/i, 'Herr'],
  [/^frau$/i, 'Frau'],
  [/^mr\.?$/i, 'Mr.'],
  [/^mrs\.?$/i, 'Mrs.'],
  [/^ms\.?$/i, 'Ms.'],
  [/^miss$/i, 'Miss'],
  [/^mx\.?$/i, 'Mx.'],
];
/** Academic and professional titles written before a name (German and Austrian usage). */
const PREFIX_TITLE =
  /^(?:dr\.?|prof\.?|univ\.-prof\.?|pd|dipl\.-?[\p{L}]+\.?|dipl\.|mag\.?(?:\([a-z]+\))?|ing\.|med\.|dent\.|rer\.|nat\.|pol\.|oec\.|phil\.|jur\.|h\.\s?c\.|habil\.|em\.)$/iu;
/** Degrees and suffixes written after a name. */
const POSTNOMINAL =
  /^(?:ph\.?\s?d\.?|mba|m\.?\s?sc\.?|b\.?\s?sc\.?|ll\.?\s?m\.?|m\.?\s?a\.?|b\.?\s?a\.?|m\.?\s?eng\.?|b\.?\s?eng\.?|cpa|cfa|pmp|jr\.?|sr\.?|ii|iii)$/i;
const PARTICLES = new Set([
  'von',
  'van',
  'de',
  'der',
  'den',
  'del',
  'della',
  'di',
  'da',
  'du',
  'le',
  'la',
  'zu',
  'zur',
  'zum',
  'vom',
  'ten',
  'ter',
  'dos',
  'das',
  'bin',
  'al',
  'el',
  'st.',
]);
/** Capitalised words that start or fill a line without being a name ("Ihr Team der ..."). */
const NOT_NAMES = new Set([
  'ihr',
  'ihre',
  'euer',
  'eure',
  'dein',
  'deine',
  'your',
  'yours',
  'the',
  'das',
  'die',
  'team',
  'kundenservice',
  'kundenbetreuung',
  'kundendienst',
  'support',
  'service',
  'office',
  'büro',
  'vertrieb',
  'sales',
  'abteilung',
  'department',
  'geschäftsleitung',
  'management',
  'redaktion',
  'hotline',
  'zentrale',
  'empfang',
  'mitarbeiter',
  'mitarbeiterin',
  'staff',
  'customer',
]);
const WORD = /^[\p{Lu}][\p{L}'’]*(?:-[\p{Lu}][\p{L}'’]*)*$/u;
const INITIAL = /^[\p{Lu}]\.$/u;
/** Shared mailboxes: their local part names no person. */
const ROLE_MAILBOXES =
  /^(?:info|kontakt|contact|office|mail|post|sales|vertrieb|support|hello|hallo|team|service|admin|no-?reply|buchhaltung|accounting|billing|invoice|rechnung|jobs|karriere|careers|presse|press|marketing|hr|empfang|reception|zentrale)$/i;

const titleCase = (w: string) =>
  w
    .toLowerCase()
    .replace(/(^|[-'’\s])(\p{L})/gu, (_m, p: string, c: string) => p + c.toUpperCase());

/** Lower case, umlauts and accents folded: "Müller" and "mueller" compare equal. */
export function fold(s: string): string[] {
  const lower = s.toLowerCase();
  const plain = lower.normalize('NFD').replace(/\p{M}/gu, '');
  const german = lower
    .replace(/ä/g, 'ae')
    .replace(/ö/g, 'oe')
    .replace(/ü/g, 'ue')
    .replace(/ß/g, 'ss');
  return [...new Set([plain.replace(/ß/g, 'ss'), german])];
}

/**
 * Reads "Prof. Dr. Anna-Lena von der Heide", "Herr Max Müller", "SMITH, John", "John Smith, MBA"
 * as name parts, or null when the text does not look like a person's name. A single word counts
 * only when `single` allows it (the line right after a closing phrase).
 */
export function parseName(raw: string, single = false): NameParts | null {
  // "i. A." / "i. V." / "ppa." sign on someone's behalf: not part of the name.
  const text = raw
    .replace(/[,;]\s*$/, '')
    .replace(/^(?:i\.\s?a\.|i\.\s?v\.|ppa\.|pp\.)\s*/i, '')
    .trim();
  if (!text || text.length > 70 || /[\d@:/+()&=]|www\./i.test(text)) return null;

  // "Schmidt, Anna" (family name first, as lists and some signatures write it)
  const reversed =
    /^([\p{Lu}][\p{L}'’-]+),\s*([\p{Lu}][\p{L}'’-]+(?:\s[\p{Lu}][\p{L}'’-]+)?)$/u.exec(text);
  if (reversed && !POSTNOMINAL.test(reversed[2])) {
    const cased = (w: string) => (w === w.toUpperCase() ? titleCase(w) : w);
    return {
      salutation: null,
      title: null,
      firstname: cased(reversed[2]),
      lastname: cased(reversed[1]),
    };
  }

  let tokens = text.replace(/,/g, ' ').split(/\s+/);
  let salutation: string | null = null;
  const prefix: string[] = [];
  const post: string[] = [];
  while (tokens.length) {
    const t = tokens[0];
    const sal = SALUTATIONS.find(([re]) => re.test(t));
    if (sal && !salutation) salutation = sal[1];
    else if (PREFIX_TITLE.test(t)) prefix.push(t);
    else break;
    tokens = tokens.slice(1);
  }
  while (tokens.length && POSTNOMINAL.test(tokens[tokens.length - 1])) {
    post.unshift(tokens.pop()!);
  }
  if (!tokens.length || tokens.length > 4) return null;
  if (tokens.some((t) => NOT_NAMES.has(t.toLowerCase()))) return null;
  if (tokens.length === 1 && !single && !salutation) return null;

  const caps = tokens.every((t) => t === t.toUpperCase()) && tokens.some((t) => t.length > 2);
  const words = caps
    ? tokens.map((t) => (PARTICLES.has(t.toLowerCase()) ? t.toLowerCase() : titleCase(t)))
    : tokens;
  const ok = words.every(
    (w, i) => WORD.test(w) || (i > 0 && (PARTICLES.has(w) || INITIAL.test(w))),
  );
  if (!ok) return null;

  const particle = words.findIndex((w, i) => i > 0 && PARTICLES.has(w));
  let first: string[];
  let last: string[];
  if (particle > 0) [first, last] = [words.slice(0, particle), words.slice(particle)];
  else if (words.length === 1) [first, last] = salutation ? [[], words] : [words, []];
  else [first, last] = [words.slice(0, -1), words.slice(-1)];
  return {
    salutation,
    title: prefix.length ? prefix.join(' ') : post.length ? post.join(' ') : null,
    firstname: first.length ? first.join(' ') : null,
    lastname: last.length ? last.join(' ') : null,
  };
}

/** How well a name agrees with an e-mail's local part: 2 both names, 1 one of them, 0 none. */
export function emailAgreement(name: NameParts, email: string | undefined): number {
  if (!email) return 0;
  const local = email.split('@')[0].toLowerCase();
  const parts = local.split(/[._-]+/).filter(Boolean);
  const has = (n: string | null) =>
    !!n &&
    n
      .split(/[\s-]+/)
      .some((w) => fold(w).some((f) => f.length > 1 && (parts.includes(f) || local.includes(f))));
  const initial = (n: string | null) =>
    !!n && fold(n[0]).some((f) => parts[0] === f || local.startsWith(f));
  return (
    (has(name.lastname) ? 1 : 0) + (has(name.firstname) ? 1 : initial(name.firstname) ? 0.5 : 0)
  );
}

/** A name read from a personal address ("anna.schmidt@..."), or null for shared mailboxes. */
export function nameFromEmail(email: string): NameParts | null {
  const local = email.split('@')[0];
  if (ROLE_MAILBOXES.test(local)) return null;
  const parts = local.split(/[._]+/).filter((p) => /^[a-z-]+$/i.test(p));
  if (parts.length < 2) return null;
  const first = parts[0].length > 1 ? titleCase(parts[0]) : null;
  const last = titleCase(parts[parts.length - 1]);
  if (last.length < 2) return null;
  return { salutation: null, title: null, firstname: first, lastname: last };
}
