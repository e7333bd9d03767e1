import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsString, IsUUID } from 'class-validator';
import { PageParam, PageSizeParam, SortParam } from '@crm/paging';

export const INVOICE_NUMBER_DOC =
  '1 to 50 letters, digits and the separators - / . _, starting and ending with a letter or ' +
  'digit (rule invoiceNumber); unique per tenant (409 naming it)';

/** BK11 PUT body. */
@InputType('SetInvoiceNumberInput')
export class SetInvoiceNumberInput {
  @ApiProperty({ description: INVOICE_NUMBER_DOC, example: 'EXT-2026-0042' })
  @Field({ description: INVOICE_NUMBER_DOC })
  @IsDefined()
  @IsString()
  invoiceNumber!: string;
}

export const BOOKING_MAIL_SORT_DOC =
  'Comma list of dateCreated (default: newest first), sentAt, status, kind; `-` for descending';

/** BK17 query: paging and sort (no text search). */
@ArgsType()
export class BookingMailListQuery {
  @PageParam()
  page?: number;

  @PageSizeParam()
  pageSize?: number;

  @SortParam(BOOKING_MAIL_SORT_DOC)
  sort?: string;
}

/** GraphQL bookingMails(bookingId, ...). */
@ArgsType()
export class BookingMailsArgs extends BookingMailListQuery {
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  bookingId!: string;
}
