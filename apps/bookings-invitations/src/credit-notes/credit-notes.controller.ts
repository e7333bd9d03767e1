import { Controller, Get, Param, StreamableFile } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { RawResponse } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { contentDisposition } from '@crm/storage/uploads';
import { CreditNoteView } from './dto/credit-note.output';
import { CreditNotesService } from './credit-notes.service';

@ApiTags('Bookings')
@Controller('bookings')
export class CreditNotesController {
  constructor(private readonly creditNotes: CreditNotesService) {}

  @Get(':id/credit-notes')
  @ApiOperation({
    summary: 'CN1 The credit notes of a booking',
    description:
      'CN1 (*ours*) The credit notes (cancellation invoices) issued when the invoiced booking was ' +
      'cancelled, oldest first: number (`<year>-C<6 digits>`, gap-free per tenant and year), ' +
      'issue date, the invoice number it cancels, one reversal line per cancelled ticket ' +
      '(negative), the fee kept (split over the tickets’ tax rates), totals per tax rate and in ' +
      'all (`totalGross` = -(cancelled gross - fee)), the ticket ids. A booking without invoice ' +
      'number gets none (empty list). Unknown or foreign booking: 404.',
  })
  @ApiEnvelope(CreditNoteView, 200, true)
  @ApiResponse({ status: 404, description: 'Unknown or foreign booking' })
  list(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<CreditNoteView[]> {
    return this.creditNotes.list(ctx, id);
  }

  @Get(':id/credit-notes/:creditNoteId/pdf')
  @RawResponse()
  @ApiOperation({
    summary: 'CN2 A credit note as PDF',
    description:
      'CN2 (*ours*) Rendered from the credit note as issued, in the booking’s language, with the ' +
      'tenant’s invoice sender (event settings; without one the PDF says so). ' +
      '`Content-Disposition: attachment` named after the number. 404 for an unknown or foreign ' +
      'booking and for a credit note not of this booking; 503 when the events service does not answer.',
  })
  @ApiProduces('application/pdf')
  @ApiOkResponse({
    description: 'The credit note PDF',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiResponse({ status: 404, description: 'Unknown or foreign booking, or unknown credit note' })
  @ApiResponse({ status: 503, description: 'The events service did not answer' })
  async pdf(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Param('creditNoteId') creditNoteId: string,
  ): Promise<StreamableFile> {
    const file = await this.creditNotes.pdf(ctx, id, creditNoteId);
    return new StreamableFile(file.content, {
      type: file.contentType,
      disposition: contentDisposition(file.filename),
      length: file.content.length,
    });
  }
}
