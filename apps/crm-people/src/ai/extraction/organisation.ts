/** Legal forms that end (or sit in) a company name; case-sensitive where a word could be a name. */
const LEGAL_FORM = new RegExp(
  [
    String.raw`\b(?:g?GmbH|mbH|GesmbH|AG|SE|KGaA|KG|OHG|GbR|PartG(?:mbB)?|UG(?:\s*\(haftungsbeschränkt\))?|eG|e\.\s?V\.|e\.\s?K\.)(?=$|[\s,.;)&])`,
    String.raw`\b(?:Ltd\.?|Limited|LLC|L\.L\.C\.|LLP|PLC|plc|Inc\.?|Incorporated|Corp\.?|Corporation|Pty\.?\s?Ltd\.?|S\.A\.S?\.?|SAS|SARL|S\.à\s?r\.l\.|S\.r\.l\.|S\.p\.A\.|B\.V\.|N\.V\.|AB|ASA|Oy|A\/S|ApS|a\.s\.|s\.r\.o\.|Sp\.\s?z\s?o\.o\.)(?=$|[\s,.;)])`,
  ].join('|'),
  'u',
);
/** Words that name organisations without a legal form. */
const ORGANISATION_WORD =
  /\b(?:group|gruppe|holding|solutions|consulting|technologies|technology|systems|software|services|partners|agentur|agency|studio|labs|bank|versicherung|insurance|kanzlei|klinik(?:um)?|hospital|universität|university|hochschule|institut|institute|verlag|stiftung|foundation|verband|association|gemeinde|stadtwerke|ministerium|ministry)\b/i;

const JOB_WORDS = [
  // English
  String.raw`\b(?:ceo|cto|cfo|coo|cmo|cio|cso|cpo|cdo|founder|co-founder|owner|president|vice\s+president|vp|svp|evp|director|head\s+of|manager|lead|leader|engineer|developer|consultant|advisor|adviser|analyst|architect|specialist|officer|executive|assistant|coordinator|representative|associate|partner|principal|administrator|designer|scientist|researcher|attorney|lawyer|counsel|accountant|recruiter|chairman|chairwoman|chair|secretary|intern|trainee|editor|journalist|professor|supervisor|technician|strategist|producer|agent)\b`,
  // German, also as the end of compounds (Vertriebsleiterin, Projektmanager)
  String.raw`(?:leiter|leiterin|führer|führerin|manager|managerin|berater|beraterin|referent|referentin|assistent|assistentin|assistenz|entwickler|entwicklerin|ingenieur|ingenieurin|architekt|architektin|koordinator|koordinatorin|spezialist|spezialistin|sachbearbeiter|sachbearbeiterin|mitarbeiter|mitarbeiterin|kaufmann|kauffrau|gründer|gründerin|inhaber|inhaberin|gesellschafter|gesellschafterin|prokurist|prokuristin|direktor|direktorin|vorstand|vorständin|vorsitzender|vorsitzende|sekretär|sekretärin|techniker|technikerin|anwalt|anwältin|steuerberater|steuerberaterin|professor|professorin|redakteur|redakteurin|lehrer|lehrerin|arzt|ärztin)\b`,
];
const JOB = new RegExp(JOB_WORDS.join('|'), 'iu');

/** Departments as signatures name them; the first group strips "Abteilung" / "Department". */
const DEPARTMENT =
  /^(?:(?:abteilung|bereich|department|dept\.?|team|division|geschäftsbereich)\s*:?\s+)?(vertrieb|verkauf|sales|marketing|einkauf|purchasing|procurement|it|edv|finance|finanzen|buchhaltung|accounting|controlling|hr|personal|human\s+resources|legal|recht|rechtsabteilung|produktion|production|logistik|logistics|engineering|entwicklung|forschung(?:\s+und|\s+&)?\s*entwicklung|r&d|research(?:\s+&\s+development)?|support|customer\s+(?:service|success|support)|kundenservice|kundendienst|key\s+accounts?|operations|kommunikation|communications|pr|presse|public\s+relations|geschäftsleitung|management|business\s+development|qualitätsmanagement|quality(?:\s+assurance)?|service|innovation|strategie|strategy|digital|it-services|facility\s+management|compliance|treasury|risk|data|product|produktmanagement|product\s+management)$/i;
const DEPARTMENT_PREFIX =
  /^(?:abteilung|bereich|department|dept\.?|division|geschäftsbereich)\s*:?\s+(.+)$/i;
/** "Head of Sales", "Leiterin Vertrieb", "Director of Engineering" */
const ROLE_OF =
  /^(?:head\s+of|director\s+of|vp\s+(?:of\s+)?|vice\s+president(?:,|\s+of)?|manager\s+of|leiter(?:in)?\s+(?:der\s+abteilung\s+|des\s+bereichs\s+|abteilung\s+|bereich\s+)?|team\s?lead(?:er)?\s+)(.+)$/i;

export const isCompanyLike = (s: string) => LEGAL_FORM.test(s);
export const isOrganisationLike = (s: string) => ORGANISATION_WORD.test(s);
export const isJobLike = (s: string) => JOB.test(s);
export const isDepartmentLike = (s: string) =>
  DEPARTMENT.test(s.trim()) || DEPARTMENT_PREFIX.test(s.trim());

export interface FoundPosition {
  position: string | null;
  department: string | null;
}

/** A position with where its department came from: "Head of Sales" only implies one. */
export interface ParsedPosition extends FoundPosition {
  implied: boolean;
}

function department(part: string): string {
  const p = DEPARTMENT_PREFIX.exec(part.trim());
  return (p ? p[1] : part).trim();
}

/**
 * A position line as position and department: "Head of Marketing, EMEA" -> department Marketing;
 * "Account Manager – Key Accounts" -> department Key Accounts; "Abteilung Einkauf" alone is a
 * department without position.
 */
export function parsePosition(text: string): ParsedPosition {
  const parts = text.split(/\s+[–—-]\s+|\s*,\s*|\s+\/\s+/).filter(Boolean);
  const dept = parts.find((p) => isDepartmentLike(p) && !isJobLike(p));
  if (dept) {
    const rest = parts.filter((p) => p !== dept).join(', ');
    return { position: rest || null, department: department(dept), implied: false };
  }
  const of = ROLE_OF.exec(parts[0]);
  if (of)
    return { position: text, department: of[1].replace(/^the\s+/i, '').trim(), implied: true };
  // "Sales Manager", "Sachbearbeiterin Buchhaltung": a department word before or after the role.
  const words = parts[0].split(/\s+/);
  for (const n of [2, 1]) {
    if (words.length <= n) continue;
    for (const [dept, role] of [
      [words.slice(0, n), words.slice(n)],
      [words.slice(-n), words.slice(0, -n)],
    ]) {
      if (DEPARTMENT.test(dept.join(' ')) && isJobLike(role.join(' '))) {
        return { position: text, department: dept.join(' '), implied: true };
      }
    }
  }
  return { position: text, department: null, implied: false };
}

/** "muster-technik.de" -> "Muster-Technik": a weak guess at the company from its domain. */
export function companyFromDomain(domain: string): string | null {
  const labels = domain.toLowerCase().split('.');
  if (labels.length < 2) return null;
  const sld =
    labels.length > 2 && ['co', 'com', 'org', 'ac', 'gv'].includes(labels[labels.length - 2])
      ? labels[labels.length - 3]
      : labels[labels.length - 2];
  if (!sld || sld.length < 2) return null;
  return sld.replace(/(^|-)(\p{L})/gu, (_m, p: string, c: string) => p + c.toUpperCase());
}

/** Mail providers: their domain says nothing about the sender's company. */
export const FREEMAIL =
  /^(?:gmail|googlemail|gmx|web|t-online|yahoo|ymail|hotmail|outlook|live|msn|icloud|me|mac|aol|posteo|mailbox|freenet|arcor|online|protonmail|proton|mail|email|bluewin|gmx-topmail|yandex|zoho)\./i;
