import vCardsJS from 'vcards-js';
import type { BusinessCard, CardAddress } from '../people/dto/person.dto';

/** Name parts of the person a card belongs to. */
export interface PersonNames {
  salutation: string | null;
  title: string | null;
  firstname: string | null;
  lastname: string | null;
}

export interface VCardFile {
  text: string;
  /** Content-Disposition value: a safe ASCII filename plus the exact one (RFC 5987). */
  contentDisposition: string;
  fileName: string;
}

const clean = (s: string | null | undefined) => s?.trim() || '';
const PRIVATE = /home|private|privat/i;

/** The card's names: the alternative ones part by part when useAlternativeName is set. */
export function cardNames(card: BusinessCard, person: PersonNames): PersonNames {
  if (!card.useAlternativeName) return person;
  return {
    salutation: card.alternativeSalutation ?? person.salutation,
    title: card.alternativeTitle ?? person.title,
    firstname: card.alternativeFirstname ?? person.firstname,
    lastname: card.alternativeLastname ?? person.lastname,
  };
}

/** Favorite first, the rest in their order. */
function favoriteFirst<T extends { isFavorite: boolean | null }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => Number(!!b.isFavorite) - Number(!!a.isFavorite));
}

/** vCard text escaping (RFC 6350 3.4) and folding at 75 characters, as vcards-js does. */
const escapeText = (s: string) =>
  s.replace(/\\/g, '\\\\').replace(/\n/g, '\\n').replace(/,/g, '\\,').replace(/;/g, '\\;');
function contentLine(line: string): string {
  const parts: string[] = [];
  let rest = line;
  let max = 75;
  while (rest.length > max) {
    parts.push(rest.slice(0, max));
    rest = rest.slice(max);
    max = 74;
  }
  parts.push(rest);
  return parts.join('\r\n ') + '\r\n';
}

function adrLine(a: CardAddress, preferred: boolean): string {
  const street = [a.street, a.streetAdditional].map(clean).filter(Boolean).join(', ');
  const values = [
    a.isPostOfficeBox ? clean(a.postboxNumber) : '',
    '',
    street,
    clean(a.city),
    clean(a.federalState),
    clean(a.zip),
    clean(a.country) || clean(a.countryCode),
  ];
  const params = ['TYPE=WORK', preferred ? 'PREF=1' : ''].filter(Boolean).join(';');
  return contentLine(`ADR;${params}:${values.map(escapeText).join(';')}`);
}

/** RFC 6350 timestamp, UTC: 20261123T163455Z. */
export function vCardTimestamp(at: Date): string {
  return at
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}Z$/, 'Z');
}

/** A vCard 4.0 of a business card (vcards-js), with every address of the card. */
export function buildVCard(card: BusinessCard, person: PersonNames): VCardFile {
  const names = cardNames(card, person);
  const v = vCardsJS();
  v.version = '4.0';
  v.uid = `urn:uuid:${card.id}`;
  v.firstName = clean(names.firstname);
  v.lastName = clean(names.lastname);
  v.namePrefix = [names.salutation, names.title].map(clean).filter(Boolean).join(' ');

  const emails = favoriteFirst(card.emails).filter((e) => e.mail);
  const fullName = [names.title, names.firstname, names.lastname].map(clean).filter(Boolean);
  v.formattedName =
    fullName.join(' ') || clean(card.business) || emails[0]?.mail || 'Business card';

  const position = favoriteFirst(card.businessPositions)[0];
  if (position?.position) v.title = position.position;
  // ORG is "name;unit": a ';' inside a part would split it, so it becomes a ','.
  const org = [card.business, card.business ? position?.department : null]
    .map((s) => clean(s).replace(/;/g, ','))
    .filter(Boolean);
  if (org.length) v.organization = org.join(';');

  v.email = emails.filter((e) => PRIVATE.test(`${e.type?.id} ${e.type?.text}`)).map((e) => e.mail!);
  v.workEmail = emails
    .filter((e) => !PRIVATE.test(`${e.type?.id} ${e.type?.text}`))
    .map((e) => e.mail!);

  const phones = favoriteFirst(card.phones).filter((p) => p.number);
  const of = (test: (type: string) => boolean) =>
    phones.filter((p) => test(p.type ?? '')).map((p) => p.number!);
  const cell = (t: string) => /mobil|cell|handy/i.test(t);
  const fax = (t: string) => !cell(t) && /fax/i.test(t);
  const pager = (t: string) => /pager/i.test(t);
  const home = (t: string) => !cell(t) && !fax(t) && !pager(t) && PRIVATE.test(t);
  v.cellPhone = of(cell);
  v.pagerPhone = of(pager);
  v.homeFax = of((t) => fax(t) && PRIVATE.test(t));
  v.workFax = of((t) => fax(t) && !PRIVATE.test(t));
  v.homePhone = of(home);
  v.workPhone = of((t) => !cell(t) && !fax(t) && !pager(t) && !home(t));

  // vcards-js writes one work and one home address; a card has any number, all of them work
  // addresses, so they are written here with the same escaping and folding.
  const addresses = favoriteFirst(card.addresses)
    .map((a, i) => adrLine(a, i === 0 && a.isFavorite))
    .filter((line) => !/^ADR[^:]*:;;;;;;\r\n$/.test(line));
  const text = v
    .getFormattedString()
    // vcards-js writes REV as an ISO string with separators and milliseconds, which RFC 6350's
    // timestamp (4.3.5) is not: parsers refuse it
    .replace(/^REV:[^\r\n]*\r\n/m, `REV:${vCardTimestamp(new Date())}\r\n`)
    .replace(/END:VCARD\r\n$/, `${addresses.join('')}END:VCARD\r\n`);

  const fileName = `${v.formattedName}.vcf`;
  return { text, fileName, contentDisposition: contentDisposition(fileName) };
}

/** `attachment` with an ASCII fallback name and the exact UTF-8 name (RFC 6266, RFC 5987). */
export function contentDisposition(fileName: string): string {
  // path separators, quotes and control characters have no place in a file name
  const exact = [...fileName]
    .map((c) => (/[\\/"]/.test(c) || c.charCodeAt(0) < 0x20 || c === '\u007f' ? '_' : c))
    .join('')
    .replace(/_+/g, '_');
  const base = exact.replace(/\.vcf$/i, '');
  const transliterated = base
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'ss')
    .replace(/[^A-Za-z0-9._ -]+/g, '_')
    .replace(/\s+/g, ' ')
    .trim();
  // nothing readable left (e.g. a name in another script): a neutral name
  const ascii = /[A-Za-z0-9]/.test(transliterated) ? transliterated : 'business-card';
  const encoded = encodeURIComponent(exact).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}.vcf"; filename*=UTF-8''${encoded}`;
}
