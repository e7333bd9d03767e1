/** One piece of a line: signatures put several facts on one line ("Tel. ... | Fax ..."). */
export interface Segment {
  text: string;
  /** Line number within the analysed block; segments of one line share it. */
  line: number;
}

const CLOSING_DE =
  /^(?:(?:mit\s+)?(?:den\s+)?(?:freundliche[nm]?|viele[n]?|beste[n]?|herzliche[n]?|liebe[n]?|sch[öo]ne[n]?|sonnige[n]?|kollegiale[n]?)\s+)?(?:gr[üu](?:ß|ss)e[n]?|gru(?:ß|ss))(?:\s+aus\s+[\p{L} -]+)?$/iu;
const CLOSING_EN =
  /^(?:(?:with\s+)?(?:best|kind|warm|warmest|many|kindest)\s+(?:regards|wishes|thanks)|regards|best|cheers|thanks|thank\s+you|many\s+thanks|sincerely|yours\s+(?:sincerely|faithfully|truly)|all\s+the\s+best|best\s+wishes)$/i;
const CLOSING_ABBREVIATION = /^(?:mfg|lg|vg|bg|br|kr)$/i;

/** A reply or forward starts: what follows belongs to someone else. */
const QUOTE_START =
  /^(?:-{2,}\s*(?:original message|ursprüngliche nachricht|forwarded message|weitergeleitete nachricht)|(?:am|on)\s.{4,80}\s(?:schrieb|wrote)\s?.*:$|(?:von|from):\s.+@.+)/i;

/** Register, tax and legal notes of a company footer: names in them are not the sender's. */
export const LEGAL_LINE =
  /^(?:sitz(?:\sder\sgesellschaft)?|registergericht|amtsgericht|handelsregister|hrb?\s|ust\.?[-\s]?id|vat\b|steuer|geschäftsführ(?:er|ung|erin)?\s*:|vorstand\s*:|aufsichtsrat|registered\s(?:office|in)|company\s(?:no|number|registration)|directors?\s*:|diese\s+e-?mail|this\s+e-?mail|the\s+information|confidential|vertraulich|bitte\s+denken|please\s+consider)/i;

/**
 * A closing phrase ("Mit freundlichen Grüßen", "Best regards,") and what follows it on the same
 * line, if anything ("Best, John").
 */
export function closingPhrase(line: string): { rest: string } | null {
  const text = line.trim();
  const cut = text.search(/[,!]/);
  const phrase = (cut >= 0 ? text.slice(0, cut) : text).replace(/[.\s]+$/, '').trim();
  const rest =
    cut >= 0
      ? text
          .slice(cut + 1)
          .replace(/^[\s,!]+/, '')
          .trim()
      : '';
  // "Thanks, that works for me." is a sentence, not a closing.
  if (rest.length > 40) return null;
  if (CLOSING_DE.test(phrase) || CLOSING_EN.test(phrase) || CLOSING_ABBREVIATION.test(phrase)) {
    return { rest };
  }
  return null;
}

/** Text as plain lines: quote markers, invisible characters and odd spaces removed. */
export function normalize(text: string): string[] {
  return (
    text
      .replace(/\r\n?/g, '\n')
      .replace(/[\u200b-\u200f\u2060\ufeff]/g, '')
      .replace(/[\u00a0\u2007\u202f]/g, ' ')
      .split('\n')
      // "> " quote markers of replies; bullets used as line decoration.
      .map((l) => l.replace(/^(?:\s*>)+\s?/, '').trim())
  );
}

/**
 * The part of the text that holds the signature: after the last closing phrase before any quoted
 * reply (or after a "-- " delimiter), else the text up to the first quoted reply. `nameHint` is a
 * name written on the closing line itself.
 */
export function signatureBlock(text: string): {
  lines: string[];
  afterClosing: boolean;
  nameHint: string | null;
} {
  const lines = normalize(text);
  let end = lines.length;
  for (let i = 1; i < lines.length; i++) {
    if (QUOTE_START.test(lines[i])) {
      end = i;
      break;
    }
  }
  let start = -1;
  let nameHint: string | null = null;
  for (let i = 0; i < end; i++) {
    const closing = lines[i].length <= 60 ? closingPhrase(lines[i]) : null;
    if (closing) {
      start = i + 1;
      nameHint = closing.rest || null;
    } else if (lines[i] === '--' || lines[i] === '-- ') {
      start = i + 1;
      nameHint = null;
    }
  }
  const block = lines.slice(Math.max(start, 0), end).filter((l) => l.length > 0);
  return { lines: block, afterClosing: start >= 0, nameHint };
}

/** Lines split at the separators signatures use: |, ·, •, tabs and wide gaps. */
export function segments(lines: string[]): Segment[] {
  return lines.flatMap((l, line) =>
    l
      .split(/\s*[|·•▪◆]\s*|\t+|\s{3,}/)
      .map((t) => t.replace(/\s+/g, ' ').trim())
      .filter((t) => t.length > 0)
      .map((t) => ({ text: t, line })),
  );
}
