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
}

/** The public link of an invitation: `{token}` of the configured address replaced. */
export const publicLink = (template: string, token: string) =>
  template.split('{token}').join(encodeURIComponent(token));

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
 * IN9, IN10: the invitation mail in the invitee's language. The link opens the invitation (a
 * portal page shows it with IN1); `?action=accept` books with the token (BK1), `?action=reject`
 * declines (IN2).
 */
export function invitationMail(
  i18n: I18nService,
  row: InvitationRow,
  event: MailEvent,
  urlTemplate: string,
): MailDraft {
  const lang = row.language;
  const t = (key: string, args: Record<string, string> = {}) =>
    i18n.t(`invitations.mail.${key}`, { lang, args }) as string;
  const link = publicLink(urlTemplate, row.token);
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
