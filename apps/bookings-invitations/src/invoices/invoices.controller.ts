import {
  Body,
  Controller,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  Query,
  StreamableFile,
} from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiProduces, ApiResponse, ApiTags } from '@nestjs/swagger';
import { Paged, RawResponse } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { contentDisposition } from '@crm/storage/uploads';
import {
  BOOKING_MAIL_SORT_DOC,
  BookingMailListQuery,
  INVOICE_NUMBER_DOC,
  SetInvoiceNumberInput,
} from './dto/invoice.input';
import { BookingInvoiceNumber, BookingMail } from './dto/invoice.output';
import { InvoicesService } from './invoices.service';

@ApiTags('Bookings')
@Controller('bookings')
export class InvoicesController {
  constructor(private readonly invoices: InvoicesService) {}

  @Post(':id/invoice-mail')
  @HttpCode(202)
  @ApiOperation({
    summary: 'BK10 Send the invoice mail to the booker',
    description:
      'BK10 Queues a mail (kind `invoice`) to the booker in the booking’s language with the ' +
      'invoice PDF attached; the mail worker sends it and retries while SMTP is down (follow it ' +
      'with BK17). History `invoice-mailed`. 409 when the booking has no invoice number; unknown ' +
      'or foreign booking: 404.',
  })
  @ApiEnvelope(BookingMail, 202)
  @ApiResponse({ status: 404, description: 'Unknown or foreign booking' })
  @ApiResponse({ status: 409, description: 'The booking has no invoice number' })
  sendInvoiceMail(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<BookingMail> {
    return this.invoices.sendInvoiceMail(ctx, id);
  }

  @Put(':id/invoice-number')
  @ApiOperation({
    summary: 'BK11 Set the invoice number of an external booking',
    description:
      `BK11 For a booking invoiced elsewhere, which has no invoice number: sets it (and the ` +
      `invoice date to now); history \`invoice-number-set\`. invoiceNumber: ${INVOICE_NUMBER_DOC}; not of the form the service assigns ` +
      '(`<year>-<6 digits>` of invoices, `<year>-C<6 digits>` of credit notes; rule assignedForm). ' +
      'A booking that has a number (assigned by this service or set before) is a 409, unless ' +
      'it is the same number (answered as set). Unknown or foreign booking: 404.',
  })
  @ApiEnvelope(BookingInvoiceNumber)
  @ApiResponse({ status: 400, description: 'invoiceNumber does not match the pattern' })
  @ApiResponse({ status: 404, description: 'Unknown or foreign booking' })
  @ApiResponse({
    status: 409,
    description: 'The booking has an invoice number, or another booking has this one',
  })
  setInvoiceNumber(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: SetInvoiceNumberInput,
  ): Promise<BookingInvoiceNumber> {
    return this.invoices.setInvoiceNumber(ctx, id, body);
  }

  @Get(':id/invoice')
  @RawResponse()
  @ApiOperation({
    summary: 'BK16 The invoice as PDF',
    description:
      'BK16 Rendered from the booking’s frozen prices and the tenant’s invoice sender (event ' +
      'settings; without one the PDF says so) in the booking’s language. ' +
      '`Content-Disposition: attachment` named after the number. 404 for an unknown or foreign ' +
      'booking and for one without an invoice number; 503 when the events service does not answer.',
  })
  @ApiProduces('application/pdf')
  @ApiOkResponse({
    description: 'The invoice PDF',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  @ApiResponse({ status: 404, description: 'Unknown or foreign booking, or no invoice' })
  @ApiResponse({ status: 503, description: 'The events service did not answer' })
  async invoice(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<StreamableFile> {
    const file = await this.invoices.invoicePdf(ctx, id);
    return new StreamableFile(file.content, {
      type: file.contentType,
      disposition: contentDisposition(file.filename),
      length: file.content.length,
    });
  }

  @Get(':id/mails')
  @ApiOperation({
    summary: 'BK17 The mails of a booking, with status',
    description:
      'BK17 Mails queued or sent for the booking (confirmation, invoice, tickets, free text): ' +
      `kind, recipient, subject, status, attempts, last error, sent at. Paged. sort: ${BOOKING_MAIL_SORT_DOC}. ` +
      'Unknown or foreign booking: 404.',
  })
  @ApiEnvelope(BookingMail, 200, true)
  @ApiResponse({ status: 404, description: 'Unknown or foreign booking' })
  mails(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Query() query: BookingMailListQuery,
  ): Promise<Paged<BookingMail>> {
    return this.invoices.mails(ctx, id, query);
  }
}
