import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { AppException, checkObject, orThrow } from '@crm/errors';
import { Ctx, RequestContext } from '@crm/request-context';
import { EventRef } from '../ticket-types/dto/ticket-type.output';
import {
  CheckInInput,
  EventTicketListQuery,
  MailTicketsFilteredInput,
  MailTicketsInput,
  ParticipantInformationInput,
  RotateSigningKeyInput,
  SetTicketsStatusInput,
  TicketIdsInput,
  TicketSummaryQuery,
  TicketVerificationQuery,
} from './dto/event-ticket.input';
import {
  CheckInResult,
  EventTicket,
  EventTicketPage,
  SigningKeyRotation,
  TicketMailsQueued,
  TicketsStatusChanged,
  TicketSummary,
  TicketVerification,
} from './dto/event-ticket.output';
import { EventTicketsService } from './event-tickets.service';
import { TicketSigningKeysService } from './ticket-signing-keys.service';

const id = () => Args('id', { type: () => ID });

/** JSON text in, the object out: 400 naming the argument when it is not JSON. */
function parseJson(field: string, text: string | null | undefined): unknown {
  if (text === null || text === undefined) return text;
  try {
    return JSON.parse(text);
  } catch {
    throw AppException.validation([
      { field, rule: 'isJson', messageKey: 'eventTickets.problems.isJson' },
    ]);
  }
}

/**
 * ET1-ET10, ET13, ET14 over GraphQL (the export and the PDF are files: REST only). JSON values
 * (integration data, participant information) travel as JSON text.
 */
@Resolver(() => EventTicket)
export class EventTicketsResolver {
  constructor(
    private readonly tickets: EventTicketsService,
    private readonly signingKeys: TicketSigningKeysService,
  ) {}

  @Query(() => EventTicketPage, { description: 'ET1 Event tickets, filtered' })
  async eventTickets(@Ctx() ctx: RequestContext, @Args() args: EventTicketListQuery) {
    const page = await this.tickets.list(ctx, args);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Query(() => EventTicket, { description: 'ET2 An event ticket with its code and check-in' })
  eventTicket(@Ctx() ctx: RequestContext, @id() ticketId: string) {
    return this.tickets.get(ctx, ticketId);
  }

  @Query(() => TicketSummary, { description: 'ET4 Counts by ticket type and status' })
  eventTicketSummary(@Ctx() ctx: RequestContext, @Args() args: TicketSummaryQuery) {
    return this.tickets.summary(ctx, args.eventId);
  }

  @Query(() => TicketVerification, {
    description: 'ET13 The public key, code format and revoked tickets for offline scanners',
  })
  ticketVerification(@Ctx() ctx: RequestContext, @Args() args: TicketVerificationQuery) {
    return this.tickets.verification(ctx, args);
  }

  @Mutation(() => EventTicket, {
    description: 'ET3 Replace the integration data (a JSON object as text, at most 16 KB)',
  })
  setTicketIntegrationData(
    @Ctx() ctx: RequestContext,
    @id() ticketId: string,
    @Args('data', { type: () => String, description: 'JSON object as text' }) data: string,
  ) {
    return this.tickets.setIntegrationData(ctx, ticketId, parseJson('data', data));
  }

  @Mutation(() => EventTicket, { description: 'ET10 Set participant information' })
  setParticipantInformation(
    @Ctx() ctx: RequestContext,
    @id() ticketId: string,
    @Args('firstname', { type: () => String, nullable: true }) firstname?: string,
    @Args('lastname', { type: () => String, nullable: true }) lastname?: string,
    @Args('email', { type: () => String, nullable: true }) email?: string | null,
    @Args('information', {
      type: () => String,
      nullable: true,
      description: 'JSON object as text; the text null clears it',
    })
    information?: string,
  ) {
    const given = Object.fromEntries(
      Object.entries({
        firstname,
        lastname,
        email,
        information: parseJson('information', information),
      }).filter(([, v]) => v !== undefined),
    );
    // the same checks as the REST body (the pipe does not see single arguments)
    const input = orThrow(checkObject(ParticipantInformationInput, given));
    return this.tickets.setParticipantInformation(ctx, ticketId, input);
  }

  @Mutation(() => TicketsStatusChanged, { description: 'ET5 Change the status of tickets' })
  setTicketsStatus(@Ctx() ctx: RequestContext, @Args('input') input: SetTicketsStatusInput) {
    return this.tickets.setStatus(ctx, input);
  }

  @Mutation(() => TicketMailsQueued, { description: 'ET6 Resend tickets' })
  resendTickets(@Ctx() ctx: RequestContext, @Args('input') input: TicketIdsInput) {
    return this.tickets.resend(ctx, input.ids);
  }

  @Mutation(() => TicketMailsQueued, { description: 'ET7 Free mail to participants' })
  mailTickets(@Ctx() ctx: RequestContext, @Args('input') input: MailTicketsInput) {
    return this.tickets.mail(ctx, input);
  }

  @Mutation(() => TicketMailsQueued, { description: 'ET8 Free mail to filtered participants' })
  mailTicketsFiltered(@Ctx() ctx: RequestContext, @Args('input') input: MailTicketsFilteredInput) {
    return this.tickets.mailFiltered(ctx, input);
  }

  @Mutation(() => CheckInResult, {
    description:
      'ET9 Check a ticket in by its code; a second check-in is a CONFLICT naming when and where',
  })
  checkIn(@Ctx() ctx: RequestContext, @Args('input') input: CheckInInput) {
    return this.tickets.checkIn(ctx, input);
  }

  @Mutation(() => SigningKeyRotation, {
    description:
      'ET14 Rotate the event’s signing key: new codes carry the new key, codes of the old one admit until the event has ended',
  })
  rotateTicketSigningKey(@Ctx() ctx: RequestContext, @Args('input') input: RotateSigningKeyInput) {
    return this.signingKeys.rotate(ctx, input);
  }

  @ResolveField('integrationData', () => String, {
    nullable: true,
    description: 'JSON object as text',
  })
  integrationData(@Parent() t: EventTicket): string | null {
    return t.integrationData ? JSON.stringify(t.integrationData) : null;
  }

  @ResolveField('participantInformation', () => String, {
    nullable: true,
    description: 'JSON object as text',
  })
  participantInformation(@Parent() t: EventTicket): string | null {
    return t.participantInformation ? JSON.stringify(t.participantInformation) : null;
  }

  /** Federation reference to the events subgraph's Event (this subgraph knows only the id). */
  @ResolveField(() => EventRef)
  event(@Parent() t: EventTicket): EventRef {
    return { __typename: 'Event', id: t.eventId } as EventRef;
  }
}
