import { DateTime } from 'luxon';
import type { I18nService } from 'nestjs-i18n';
import type { MailDraft } from '../mails/mail-outbox';
import type { InvitationRow } from './invitations.repository';

/** What an invitation mail says of the event (this service's copy of it). */
export interface MailEvent {
  eventId: string;
  title: string;
  startsAt: Date | null;
  timeZone: string;
  /** The event copy's `websiteLinks`: website id -> its invitation link with `{token}`. */
  websiteLinks: unknown;
}

/** The public link of an invitation: `{token}` of the template replaced. */
export const publicLink = (template: string, token: string) =>
  template.split('{token}').join(encodeURIComponent(token));

/**
 * The link template of an invitation, a page of one of its event's portals (the links of the
 * event's websites in its copy, `websiteLinks`): the invitation's own website; without one (an
 * import or IN5 without `websiteId`) or with one the copy does not know (no longer the event's),
 * the event's website, and of several the one with the lowest id. Any portal of the event can
 * serve the page (IN1 needs the tenant and the token, not the website), and a fixed choice keeps
 * the mail and IN3/IN4's `publicUrl` equal. `fallback` (PUBLIC_INVITATION_URL) only for an event
 * without a website; null when there is none either (no page to open).
 */
export function linkTemplateOf(
  row: Pick<InvitationRow, 'websiteId'>,
  websiteLinks: unknown,
  fallback: string,
): string | null {
  if (!websiteLinks || typeof websiteLinks !== 'object') return fallback || null;
  const links = new Map(
    Object.entries(websiteLinks as Record<string, unknown>)
      .filter((e): e is [string, string] => typeof e[1] === 'string' && e[1].includes('{token}'))
      .map(([id, link]) => [id.toLowerCase(), link]),
  );
  const own = row.websiteId ? links.get(row.websiteId.toLowerCase()) : undefined;
  if (own) return own;
  const [first] = [...links.keys()].sort();
  return first ? links.get(first)! : fallback || null;
}

const fullName = (r: Pick<InvitationRow, 'firstname' | 'lastname'>) =>
  [r.firstname, r.lastname].filter((s) => s?.trim()).join(' ') || null;

/** The event's start in its own zone, written the way the invitee's language writes dates. */
export function eventDate(event: MailEvent, language: string): string {
  if (!event.startsAt) return '-';
  const zone = DateTime.now().setZone(event.timeZone).isValid ? event.timeZone : 'UTC';
  return DateTime.fromJSDate(event.startsAt, { zone })
    .setLocale(language)
    .toLocaleString(DateTime.DATETIME_FULL);
}

/**
 * IN9, IN10: the invitation mail in the invitee's language. The link opens the invitation on the
 * portal of the invitation's website (linkTemplateOf), which shows it with IN1; the portal serves
 * `?action=accept` by booking with the token (BK1) and `?action=reject` by IN2.
 */
export function invitationMail(
  i18n: I18nService,
  row: InvitationRow,
  event: MailEvent,
  template: string,
): MailDraft {
  const lang = row.language;
  const t = (key: string, args: Record<string, string> = {}) =>
    i18n.t(`invitations.mail.${key}`, { lang, args }) as string;
  const link = publicLink(template, row.token);
  const joiner = link.includes('?') ? '&' : '?';
  const name = fullName(row);
  const text = [
    name ? t('greeting', { name }) : t('greetingNoName'),
    '',
    t('body', { title: event.title, date: eventDate(event, lang), zone: event.timeZone }),
    '',
    t('details', { link }),
    t('accept', { link: `${link}${joiner}action=accept` }),
    t('reject', { link: `${link}${joiner}action=reject` }),
    '',
    t('closing'),
  ].join('\n');
  return {
    tenantId: row.tenantId,
    kind: 'invitation',
    toAddress: row.email,
    toName: name,
    language: lang,
    subject: t('subject', { title: event.title }),
    text,
    invitationId: row.id,
    eventId: row.eventId,
  };
}

/** IN11: the organiser's own text; {firstname} and {lastname} become the invitee's. */
export function freeTextMail(row: InvitationRow, subject: string, text: string): MailDraft {
  const fill = (s: string) =>
    s
      .split('{firstname}')
      .join(row.firstname ?? '')
      .split('{lastname}')
      .join(row.lastname ?? '');
  return {
    tenantId: row.tenantId,
    kind: 'invitation-free-text',
    toAddress: row.email,
    toName: fullName(row),
    language: row.language,
    subject: fill(subject),
    text: fill(text),
    invitationId: row.id,
    eventId: row.eventId,
  };
}
