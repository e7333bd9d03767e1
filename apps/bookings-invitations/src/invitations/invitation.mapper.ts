import type { EventCopyRecord } from '../event-copies/event-copies.repository';
import type { Invitation, InvitationMail, PublicInvitation } from './dto/invitation.output';
import { publicLink } from './invitation-mail-text';
import type { InvitationRow } from './invitations.repository';

const iso = (d: Date | null) => d?.toISOString() ?? null;

/** `urlTemplate`: the link template of the invitation's website (linkTemplateOf), null: none. */
export function toInvitation(row: InvitationRow, urlTemplate: string | null): Invitation {
  return {
    id: row.id,
    eventId: row.eventId,
    token: row.token,
    publicUrl: urlTemplate ? publicLink(urlTemplate, row.token) : null,
    personId: row.personId,
    email: row.email,
    firstname: row.firstname,
    lastname: row.lastname,
    language: row.language,
    status: row.status,
    inviteeInformation: (row.inviteeInformation as Record<string, unknown> | null) ?? null,
    websiteId: row.websiteId,
    bookingId: row.bookingId,
    importJobId: row.importJobId,
    sentAt: iso(row.sentAt),
    respondedAt: iso(row.respondedAt),
    dateCreated: row.dateCreated.toISOString(),
    dateModified: row.dateModified.toISOString(),
  };
}

/** What the invitee sees: the event and their own name, never the address or information data. */
export function toPublicInvitation(
  row: InvitationRow,
  event: EventCopyRecord | null,
): PublicInvitation {
  return {
    event: {
      id: row.eventId,
      title: event?.title ?? null,
      startsAt: iso(event?.startsAt ?? null),
      endsAt: iso(event?.endsAt ?? null),
      timeZone: event?.timeZone ?? null,
    },
    firstname: row.firstname,
    lastname: row.lastname,
    language: row.language,
    status: row.status,
    booked: row.bookingId !== null,
    respondedAt: iso(row.respondedAt),
  };
}

export function toInvitationMail(m: {
  id: string;
  kind: string;
  toAddress: string;
  language: string;
  subject: string;
  status: string;
  attempts: number;
  lastError: string | null;
  sentAt: Date | null;
  dateCreated: Date;
}): InvitationMail {
  return {
    id: m.id,
    kind: m.kind,
    toAddress: m.toAddress,
    language: m.language,
    subject: m.subject,
    status: m.status,
    attempts: m.attempts,
    lastError: m.lastError,
    sentAt: iso(m.sentAt),
    dateCreated: m.dateCreated.toISOString(),
  };
}
