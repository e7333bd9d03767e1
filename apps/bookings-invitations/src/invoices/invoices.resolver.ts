import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { EventRef } from '../ticket-types/dto/ticket-type.output';
import { BookingMailsArgs } from './dto/invoice.input';
import { BookingInvoiceNumber, BookingMail, BookingMailPage } from './dto/invoice.output';
import { InvoicesService } from './invoices.service';

const id = () => Args('id', { type: () => ID });

/** BK10, BK11, BK17 over GraphQL (BK16, a file, is REST only): the same service methods. */
@Resolver(() => BookingMail)
export class InvoicesResolver {
  constructor(private readonly invoices: InvoicesService) {}

  @Query(() => BookingMailPage, { description: 'BK17 The mails of a booking, newest first' })
  async bookingMails(@Ctx() ctx: RequestContext, @Args() args: BookingMailsArgs) {
    const page = await this.invoices.mails(ctx, args.bookingId, args);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Mutation(() => BookingMail, { description: 'BK10 Queue the invoice mail to the booker' })
  sendInvoiceMail(@Ctx() ctx: RequestContext, @id() bookingId: string) {
    return this.invoices.sendInvoiceMail(ctx, bookingId);
  }

  @Mutation(() => BookingInvoiceNumber, {
    description: 'BK11 Set the invoice number of an external booking',
  })
  setInvoiceNumber(
    @Ctx() ctx: RequestContext,
    @id() bookingId: string,
    @Args('invoiceNumber') invoiceNumber: string,
  ) {
    return this.invoices.setInvoiceNumber(ctx, bookingId, { invoiceNumber });
  }

  /** Federation reference to the events subgraph's Event (null: a mail of no event). */
  @ResolveField(() => EventRef, { nullable: true })
  event(@Parent() mail: BookingMail): EventRef | null {
    return mail.eventId ? ({ __typename: 'Event', id: mail.eventId } as EventRef) : null;
  }
}
