import { findAddresses } from './addresses';
import { countryCodeOf, countryName, countryOfDomain } from './countries';
import { emailAgreement, NameParts, nameFromEmail, parseName } from './names';
import {
  companyFromDomain,
  FoundPosition,
  ParsedPosition,
  FREEMAIL,
  isCompanyLike,
  isDepartmentLike,
  isJobLike,
  isOrganisationLike,
  parsePosition,
} from './organisation';
import { countryOfPhones, defaultRegion, findPhones, PhoneType } from './phones';
import { LEGAL_LINE, Segment, segments, signatureBlock } from './text-lines';

export interface ExtractedAddress {
  street: string | null;
  zip: string | null;
  city: string | null;
  federalState: string | null;
  country: string | null;
  countryCode: string | null;
}

export interface Extraction {
  person: NameParts;
  card: {
    business: string | null;
    businessPositions: FoundPosition[];
    emails: { mail: string }[];
    phones: { number: string; type: PhoneType | null }[];
    addresses: ExtractedAddress[];
  };
  /** 0..1 per field: how sure the rules are; null where nothing was found. */
  confidence: Record<
    | 'salutation'
    | 'title'
    | 'firstname'
    | 'lastname'
    | 'business'
    | 'businessPositions'
    | 'emails'
    | 'phones'
    | 'addresses',
    number | null
  >;
}

const EMAIL =
  /(?<![\w.+-])[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}(?![\w-])/g;
const HAS_EMAIL = new RegExp(EMAIL.source);
const URL = /\b(?:https?:\/\/|www\.)[^\s|,;]+/i;
const round = (n: number) => Math.round(Math.min(n, 0.99) * 100) / 100;
const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

/** Name, company and position candidates: a line split where a company is named in it. */
function units(segs: Segment[]): Segment[] {
  return segs.flatMap((s) => {
    const atCompany = /^(.+?)\s+(?:at|bei|@)\s+(.+)$/i.exec(s.text);
    if (atCompany && (isCompanyLike(atCompany[2]) || isOrganisationLike(atCompany[2]))) {
      return [atCompany[1], atCompany[2]].map((text) => ({ text, line: s.line }));
    }
    if (s.text.includes(',') && isCompanyLike(s.text)) {
      return s.text.split(/\s*,\s*/).map((text) => ({ text, line: s.line }));
    }
    return [s];
  });
}

/**
 * Reads a person and a business card out of free text such as an e-mail signature, with rules
 * only (no service, no model): the same text always gives the same answer. `language` names the
 * countries found.
 */
export function extractContact(text: string, language: string): Extraction {
  const block = signatureBlock(text);
  const lines = block.lines.filter((l) => l.length <= 160 && !LEGAL_LINE.test(l));
  const segs = segments(lines);

  const emails = [
    ...new Map(
      lines.flatMap((l) => l.match(EMAIL) ?? []).map((m) => [m.toLowerCase(), m] as const),
    ).values(),
  ];
  const domain = emails[0]?.split('@')[1];

  const explicit = segs.map((s) => countryCodeOf(s.text)).find(Boolean) ?? null;
  const region = defaultRegion(
    explicit ?? countryOfPhones(segs) ?? (domain ? countryOfDomain(domain) : null),
  );

  const contactSegs = new Set(segs.filter((s) => HAS_EMAIL.test(s.text) || URL.test(s.text)));
  const phones = findPhones(
    segs.filter((s) => !contactSegs.has(s)),
    region,
  );
  const phoneLines = new Set(phones.map((p) => p.line));
  const addresses = findAddresses(
    segs.filter((s) => !contactSegs.has(s)),
    region,
  );
  const used = new Set<Segment>([...contactSegs, ...addresses.flatMap((a) => a.used)]);

  const candidates = units(
    segs.filter(
      (s) =>
        !used.has(s) && !(phoneLines.has(s.line) && /\d{3}/.test(s.text)) && !countryCodeOf(s.text),
    ),
  );

  // The person: the name on the closing line, else the first unit that reads as a name.
  let name: NameParts | null = null;
  let nameUnit: Segment | null = null;
  let nameScore = 0;
  const hint = block.nameHint ? parseName(block.nameHint, true) : null;
  if (hint) [name, nameScore] = [hint, 0.8];
  for (let i = 0; !name && i < candidates.length; i++) {
    const u = candidates[i];
    if (isCompanyLike(u.text) || isJobLike(u.text) || isOrganisationLike(u.text)) continue;
    if (isDepartmentLike(u.text)) continue;
    const first = i === 0 && block.afterClosing;
    name = parseName(u.text, first);
    if (name) [nameUnit, nameScore] = [u, first ? 0.8 : 0.55];
  }
  if (name) {
    nameScore += 0.1 * emailAgreement(name, emails[0]) + (name.salutation ? 0.05 : 0);
  } else if (emails[0]) {
    name = nameFromEmail(emails[0]);
    nameScore = 0.4;
  }
  const person: NameParts = name ?? {
    salutation: null,
    title: null,
    firstname: null,
    lastname: null,
  };

  // The company: a legal form, else an organisation word, else the sender's domain.
  const rest = candidates.filter((u) => u !== nameUnit);
  let business: string | null = null;
  let businessScore = 0;
  const legal = rest.find((u) => isCompanyLike(u.text) && !URL.test(u.text));
  const organisation = rest.find((u) => isOrganisationLike(u.text) && !isJobLike(u.text));
  const site = segs.map((s) => URL.exec(s.text)?.[0]).find(Boolean);
  const siteDomain = site?.replace(/^(?:https?:\/\/)?(?:www\.)?/i, '').split(/[/?#]/)[0];
  const guessDomain = [domain, siteDomain].find((d) => d && !FREEMAIL.test(d));
  if (legal) [business, businessScore] = [legal.text, 0.9];
  else if (organisation) [business, businessScore] = [organisation.text, 0.6];
  else if (guessDomain) [business, businessScore] = [companyFromDomain(guessDomain), 0.3];
  const companyUnit = legal ?? organisation;

  // Positions: job lines; a department line right after one completes it (and wins over a
  // department only implied by the title, as in "Leiterin Vertrieb | Key Accounts").
  const positions: ParsedPosition[] = [];
  let positionScore = 0;
  let lastLine = -1;
  for (const u of rest) {
    if (u === companyUnit || positions.length >= 3) continue;
    const last = positions[positions.length - 1];
    if (isJobLike(u.text)) {
      positions.push(parsePosition(u.text));
      const near = nameUnit !== null && u.line - nameUnit.line <= 2;
      positionScore = Math.max(positionScore, near ? 0.8 : 0.65);
    } else if (isDepartmentLike(u.text)) {
      const found = parsePosition(u.text);
      if (last && u.line - lastLine <= 1 && (!last.department || last.implied)) {
        [last.department, last.implied] = [found.department, false];
      } else positions.push(found);
      positionScore = Math.max(positionScore, 0.6);
    } else continue;
    lastLine = u.line;
  }

  return {
    person,
    card: {
      business,
      businessPositions: positions.map(({ position, department }) => ({ position, department })),
      emails: emails.map((mail) => ({ mail })),
      phones: phones.map(({ number, type }) => ({ number, type })),
      addresses: addresses.map((a) => ({
        street: a.street,
        zip: a.zip,
        city: a.city,
        federalState: a.federalState,
        country: a.countryCode ? countryName(a.countryCode, language) : null,
        countryCode: a.countryCode,
      })),
    },
    confidence: {
      salutation: person.salutation ? 0.95 : null,
      title: person.title ? 0.95 : null,
      firstname: person.firstname ? round(nameScore) : null,
      lastname: person.lastname ? round(nameScore) : null,
      business: business ? round(businessScore) : null,
      businessPositions: positions.length ? round(positionScore) : null,
      emails: emails.length ? 0.99 : null,
      phones: phones.length ? round(mean(phones.map((p) => (p.labelled ? 0.95 : 0.85)))) : null,
      addresses: addresses.length
        ? round(
            mean(
              addresses.map(
                (a) =>
                  (a.street && a.city ? 0.9 : 0.7) -
                  (a.countryCode && !a.countryExplicit ? 0.05 : 0),
              ),
            ),
          )
        : null,
    },
  };
}
