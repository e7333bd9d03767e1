/**
 * What never reaches a log line: the values of these keys wherever they sit in a logged object
 * (pino's `redact`, one level deep and at the top), and secrets written into text.
 */
const SECRET_KEYS = [
  'authorization',
  'apiKey',
  'api_key',
  'password',
  'secret',
  'signingSecret',
  'webhookSecret',
  'token',
  'internalToken',
  'adminToken',
  'cookie',
  '"x-internal-token"',
  '"x-api-key"',
  'DATABASE_URL',
  'INTERNAL_TOKEN',
  'ADMIN_TOKEN',
];

const bracket = (key: string) => (key.startsWith('"') ? `[${key}]` : `.${key}`);

export const REDACTED = '[redacted]';

/** pino `redact.paths`: each secret key at the top, one and two levels down. */
export const REDACT_PATHS = SECRET_KEYS.flatMap((key) => [
  key.startsWith('"') ? `[${key}]` : key,
  `*${bracket(key)}`,
  `*.*${bracket(key)}`,
]);

const TEXT_SECRETS: [RegExp, string][] = [
  // a password in a URL: postgres://user:secret@host -> postgres://user:[redacted]@host
  [/([a-z][a-z0-9+.-]*:\/\/[^:/@\s]*:)[^@\s]+@/gi, `$1${REDACTED}@`],
  // a bearer token or key written out: Authorization: Bearer abc -> Bearer [redacted]
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g, `$1 ${REDACTED}`],
];

/** The text with URL passwords and bearer tokens replaced by [redacted]. */
export function redactText(text: string): string {
  let out = text;
  for (const [pattern, replacement] of TEXT_SECRETS) out = out.replace(pattern, replacement);
  return out;
}
