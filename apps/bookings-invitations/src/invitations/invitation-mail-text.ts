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
 * The link template of an invitation: its website's invitation link (a portal page, from the
 * event's copy, `websiteLinks`), else `fallback` (PUBLIC_INVITATION_URL): for an invitation
 * without a website, or one whose website the copy does not know (no longer the event's).
 */
export function linkTemplateOf(
  row: Pick<InvitationRow, 'websiteId'>,
  websiteLinks: unknown,
  fallback: string,
): string {
  if (!row.websiteId || !websiteLinks || typeof websiteLinks !== 'object') return fallback;
  const link = (websiteLinks as Record<string, unknown>)[row.websiteId.toLowerCase()];
  return typeof link === 'string' && link.includes('{token}') ? link : fallback;
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
  fallbackTemplate: string,
): MailDraft {
  const lang = row.language;
  const t = (key: string, args: Record<string, string> = {}) =>
    i18n.t(`invitations.mail.${key}`, { lang, args }) as string;
  const link = publicLink(linkTemplateOf(row, event.websiteLinks, fallbackTemplate), row.token);
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
