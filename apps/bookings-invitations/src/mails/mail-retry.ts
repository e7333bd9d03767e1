/**
 * Delays after a failed attempt, as multiples of the first (30 s by default): 30 s, 2 min, 10 min,
 * 1 h, 6 h, then every 12 h. An SMTP outage of up to about 3 days delays mails but loses none;
 * after the last delay the mail is `failed`.
 */
const FACTORS = [1, 4, 20, 120, 720, 1440, 1440, 1440, 1440, 1440];

/** How many attempts a mail gets in all. */
export const MAX_MAIL_ATTEMPTS = FACTORS.length + 1;

/**
 * The wait before the next attempt after `attempts` failed ones (1 = the first failed), or null
 * when the mail has had its last attempt.
 */
export function mailRetryDelayMs(attempts: number, firstMs = 30_000): number | null {
  if (attempts < 1) return 0;
  const factor = FACTORS[attempts - 1];
  return factor === undefined ? null : factor * firstMs;
}

/**
 * A rejection that retrying will not change: the server refused the recipient or the message
 * permanently (5xx on RCPT TO or DATA). Connection failures and 4xx answers are retried.
 */
export function isPermanentSmtpError(err: unknown): boolean {
  const e = err as { responseCode?: number; command?: string; code?: string };
  if (typeof e?.responseCode !== 'number') return false;
  if (e.responseCode < 500 || e.responseCode > 599) return false;
  // 5xx on the connection itself (e.g. authentication) is a setup problem: retry until fixed.
  return e.code === 'EENVELOPE' || e.command === 'DATA' || e.code === 'EMESSAGE';
}
