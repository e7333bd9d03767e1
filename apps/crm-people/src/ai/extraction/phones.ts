import { CountryCode, findPhoneNumbersInText, isSupportedCountry } from 'libphonenumber-js/max';
import type { Segment } from './text-lines';

export type PhoneType = 'mobile' | 'landline' | 'fax';

export interface FoundPhone {
  /** E.164, e.g. +4989123456 */
  number: string;
  type: PhoneType | null;
  /** The type came from a label ("Fax:", "Mobil") rather than from the number plan. */
  labelled: boolean;
  line: number;
}

const FAX = /(?:^|[^\p{L}])(?:tele)?fax\b/iu;
const MOBILE = /(?:^|[^\p{L}])(?:mobil\w*|mobile|handy|cell(?:phone)?|gsm|mob|m)(?=$|[^\p{L}])/iu;
const LANDLINE =
  /(?:^|[^\p{L}])(?:tel\w*|phone|fon|fixed|office|büro|zentrale|switchboard|direct|direkt|durchwahl|t|p|ph)(?=$|[^\p{L}])/iu;

function typeFromLabel(label: string): PhoneType | null {
  if (FAX.test(label)) return 'fax';
  if (MOBILE.test(label)) return 'mobile';
  if (LANDLINE.test(label)) return 'landline';
  return null;
}

/** Adjusts notations libphonenumber misreads: "+49 (0)89" keeps a trunk 0 after the country. */
const clean = (s: string) => s.replace(/(\+\d{1,3})\s*\(0\)\s*/g, '$1 ');

export function defaultRegion(code: string | null): CountryCode {
  return code && isSupportedCountry(code) ? code : 'DE';
}

/**
 * Phone numbers of the segments as E.164, with their kind from the label in front of them
 * ("Tel.", "Mobil:", "F") or, without a label, from the number plan (mobile ranges).
 */
export function findPhones(segments: Segment[], region: CountryCode): FoundPhone[] {
  const seen = new Set<string>();
  const out: FoundPhone[] = [];
  for (const seg of segments) {
    const text = clean(seg.text);
    let from = 0;
    for (const hit of findPhoneNumbersInText(text, { defaultCountry: region })) {
      const e164 = hit.number.number as string;
      const label = text.slice(from, hit.startsAt);
      from = hit.endsAt;
      if (seen.has(e164)) continue;
      seen.add(e164);
      const labelled = typeFromLabel(label);
      const plan = hit.number.getType();
      out.push({
        number: e164,
        type:
          labelled ?? (plan === 'MOBILE' ? 'mobile' : plan === 'FIXED_LINE' ? 'landline' : null),
        labelled: labelled !== null,
        line: seg.line,
      });
    }
  }
  return out;
}

/** The country of the first number written internationally (+41 ... -> CH), if any. */
export function countryOfPhones(segments: Segment[]): string | null {
  for (const seg of segments) {
    if (!seg.text.includes('+') && !/(?:^|\s)00\d/.test(seg.text)) continue;
    const hit = findPhoneNumbersInText(clean(seg.text), { defaultCountry: 'DE' }).find((h) =>
      /^\s*(?:\+|00)/.test(clean(seg.text).slice(h.startsAt, h.endsAt)),
    );
    if (hit?.number.country) return hit.number.country;
  }
  return null;
}
