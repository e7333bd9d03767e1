import { Context, Parent, ResolveField, Resolver } from '@nestjs/graphql';
import DataLoader from 'dataloader';
import { Ctx, RequestContext } from '@crm/request-context';
import type { GraphQLRequestContext } from '@crm/service-kit';
import { Booking } from '../bookings/dto/booking.output';
import { CreditNoteView } from './dto/credit-note.output';
import { CreditNotesService } from './credit-notes.service';

type WithLoaders = GraphQLRequestContext & {
  creditNoteLoader?: DataLoader<string, CreditNoteView[]>;
};

/** Booking.creditNotes (CN1 over GraphQL; CN2, a file, is REST only). */
@Resolver(() => Booking)
export class CreditNotesResolver {
  constructor(private readonly service: CreditNotesService) {}

  /** The credit notes of every booking of one response in one query. */
  @ResolveField(() => [CreditNoteView], {
    description: 'CN1 The credit notes (cancellation invoices) of the booking, oldest first',
  })
  creditNotes(
    @Parent() booking: Booking,
    @Ctx() ctx: RequestContext,
    @Context() context: WithLoaders,
  ): Promise<CreditNoteView[]> {
    context.creditNoteLoader ??= new DataLoader<string, CreditNoteView[]>((ids) =>
      this.service.ofBookings(ctx.tenantId, ids),
    );
    return context.creditNoteLoader.load(booking.id);
  }
}
