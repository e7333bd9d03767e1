import { countryCodeOf } from './countries';
import type { Segment } from './text-lines';

export interface FoundAddress {
  street: string | null;
  zip: string | null;
  city: string | null;
  federalState: string | null;
  /** ISO 3166 alpha-2; explicit (a country line or prefix) or implied by the postcode's form. */
  countryCode: string | null;
  countryExplicit: boolean;
  /** Segments used, so other rules do not read them as a name or company. */
  used: Segment[];
}

const CITY = String.raw`[\p{Lu}][\p{L}.'’()/ -]*?[\p{L}.)]`;
/** "80331 München", "D-80331 München", "1010 Wien", "CH-8001 Zürich" */
const CONTINENTAL = new RegExp(String.raw`^(?:([A-Z]{1,2})[-–]\s?)?(\d{4,5})\s+(${CITY})$`, 'u');
/** "1012 AB Amsterdam" */
const DUTCH = new RegExp(String.raw`^(\d{4}\s?[A-Z]{2})\s+(${CITY})$`, 'u');
/** "Mountain View, CA 94043" */
const US = new RegExp(String.raw`^(${CITY}),?\s+([A-Z]{2})\s+(\d{5}(?:-\d{4})?)$`, 'u');
/** "London SW1A 2AA", "London, EC1A 1BB" or the postcode alone */
const UK_POSTCODE = String.raw`[A-Z]{1,2}\d[A-Z\d]?\s?\d[A-Z]{2}`;
const UK = new RegExp(String.raw`^(?:(${CITY}),?\s+)?(${UK_POSTCODE})$`, 'u');

/** "Musterstraße 12", "Am Markt 3a", "Hauptstr. 5-7", "Praterstraße 25/3/12" (stair, door) */
const STREET_NUMBER_LAST =
  /^[\p{L}][\p{L}ß.'’ -]*?\s\d{1,5}\s?[a-zA-Z]?(?:\s?[-/]\s?\d{1,5}\s?[a-zA-Z]?){0,3}$/u;
/** "1600 Amphitheatre Parkway", "10 Downing Street" */
const STREET_NUMBER_FIRST = /^\d{1,5}[a-zA-Z]?(?:[-–]\d{1,5})?,?\s+[\p{L}][\p{L}.'’ -]+$/u;
const PREFIX_COUNTRY: Record<string, string> = {
  D: 'DE',
  A: 'AT',
  CH: 'CH',
  FL: 'LI',
  L: 'LU',
  F: 'FR',
  I: 'IT',
  B: 'BE',
  NL: 'NL',
};

const STREET_TYPE =
  /\b(?:street|st\.?|road|rd\.?|avenue|ave\.?|boulevard|blvd\.?|lane|drive|way|parkway|pkwy\.?|court|place|square|terrace|highway|stra(?:ß|ss)e|str\.|weg|allee|gasse|platz)$/i;

const isStreet = (s: string) =>
  (STREET_NUMBER_LAST.test(s) || STREET_NUMBER_FIRST.test(s)) &&
  !/^(?:postfach|p\.?\s?o\.?\s?box)/i.test(s);

/** A piece of a segment (split at commas), with the segment it came from. */
interface Part extends Segment {
  from: Segment;
}

interface Locality {
  zip: string;
  city: string | null;
  federalState: string | null;
  countryCode: string | null;
  explicit: boolean;
}

function locality(text: string, region: string): Locality | null {
  let m = US.exec(text);
  if (m) return { zip: m[3], city: m[1], federalState: m[2], countryCode: 'US', explicit: false };
  m = UK.exec(text);
  if (m)
    return {
      zip: m[2],
      city: m[1] ?? null,
      federalState: null,
      countryCode: 'GB',
      explicit: false,
    };
  m = DUTCH.exec(text);
  if (m) return { zip: m[1], city: m[2], federalState: null, countryCode: 'NL', explicit: false };
  m = CONTINENTAL.exec(text);
  // "1600 Amphitheatre Parkway" is a street, not postcode and city.
  if (m && !STREET_TYPE.test(m[3])) {
    const prefixed = m[1] ? PREFIX_COUNTRY[m[1]] : undefined;
    // Four digits: Austria, Switzerland and others; five: Germany, France, Italy, Spain...
    const implied =
      m[2].length === 5
        ? ['AT', 'CH', 'BE', 'DK', 'NL', 'LU'].includes(region)
          ? 'DE'
          : region
        : ['AT', 'CH', 'BE', 'DK', 'LU', 'NO', 'HU'].includes(region)
          ? region
          : null;
    return {
      zip: m[2],
      city: m[3],
      federalState: null,
      countryCode: prefixed ?? implied,
      explicit: !!prefixed,
    };
  }
  return null;
}

/**
 * Postal addresses: a postcode-and-city segment, the street segment before it (same line before
 * a comma, or the line above) and a country segment after it, in the notations of Germany,
 * Austria, Switzerland, the Netherlands, the UK and the US.
 */
export function findAddresses(segments: Segment[], region: string): FoundAddress[] {
  // Commas separate address parts on one line ("Musterstr. 1, 80331 München, Germany").
  const parts: Part[] = segments.flatMap((s) =>
    /\d/.test(s.text) && s.text.includes(',') && !US.test(s.text) && !UK.test(s.text)
      ? s.text
          .split(/\s*,\s*/)
          .filter(Boolean)
          .map((text) => ({ text, line: s.line, from: s }))
      : [{ ...s, from: s }],
  );
  const out: FoundAddress[] = [];
  const taken = new Set<number>();
  parts.forEach((part, i) => {
    const loc = locality(part.text, region);
    if (!loc || taken.has(i)) return;
    const used: Segment[] = [part.from];
    let street: string | null = null;
    for (let j = i - 1; j >= Math.max(0, i - 2); j--) {
      if (taken.has(j)) break;
      if (isStreet(parts[j].text)) {
        street = parts[j].text;
        taken.add(j);
        used.push(parts[j].from);
        break;
      }
    }
    let city = loc.city;
    // A UK postcode on its own line: the city is the line above it.
    if (!city && i > 0 && !taken.has(i - 1) && /^[\p{Lu}][\p{L} .'-]+$/u.test(parts[i - 1].text)) {
      city = parts[i - 1].text;
      used.push(parts[i - 1].from);
    }
    let countryCode = loc.countryCode;
    let explicit = loc.explicit;
    const next = parts[i + 1];
    const named = next ? countryCodeOf(next.text) : null;
    if (named) {
      countryCode = named;
      explicit = true;
      taken.add(i + 1);
      used.push(next.from);
    }
    taken.add(i);
    out.push({
      street,
      zip: loc.zip,
      city,
      federalState: loc.federalState,
      countryCode,
      countryExplicit: explicit,
      used,
    });
  });
  return out;
}
