import type { RenderedAttachment } from '../mails/mail-attachments';
import type { EventCopyRecord } from '../event-copies/event-copies.repository';
import type { TicketRecord } from './event-tickets.repository';
import { renderTicketPdf } from './ticket-pdf';

/** ET12's PDF of a found ticket, as a file (the route) or a mail attachment (the worker). */
export async function pdfOfTicket(
  found: { row: TicketRecord; code: string | null; event: EventCopyRecord | null },
  language: string,
): Promise<RenderedAttachment> {
  const { row, code, event } = found;
  const content = await renderTicketPdf(
    {
      ticketId: row.id,
      status: row.status,
      participant: `${row.participantFirstname} ${row.participantLastname}`.trim(),
      ticketTypeName: row.ticketTypeName,
      bookingId: row.bookingId,
      code,
      event: event
        ? {
            title: event.title,
            startsAt: event.startsAt,
            endsAt: event.endsAt,
            timeZone: event.timeZone,
          }
        : null,
    },
    language,
  );
  return { filename: `ticket-${row.id}.pdf`, contentType: 'application/pdf', content };
}
