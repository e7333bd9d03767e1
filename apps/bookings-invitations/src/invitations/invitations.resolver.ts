import { Args, ID, Mutation, Parent, Query, ResolveField, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { PersonRef } from '../bookings/dto/booking.output';
import { JSONObject } from '../common/json-object.scalar';
import { EventRef } from '../ticket-types/dto/ticket-type.output';
import {
  CreateInvitationInput,
  DeleteInvitationsInput,
  ImportJobArgs,
  InvitationFreeTextMailInput,
  InvitationListQuery,
  InvitationMailsFilterInput,
  InvitationMailsInput,
  InvitationsStatusInput,
} from './dto/invitation.input';
import {
  Invitation,
  InvitationImportJob,
  InvitationMail,
  InvitationMailsQueued,
  InvitationPage,
  InvitationsDeleted,
  InvitationValidation,
  PublicInvitation,
} from './dto/invitation.output';
import { InvitationImportService } from './invitation-import.service';
import { InvitationMailsService } from './invitation-mails.service';
import { InvitationsService } from './invitations.service';

const id = () => Args('id', { type: () => ID });

/** IN1-IN17 over GraphQL (files excepted: import and export): the same service methods. */
@Resolver(() => Invitation)
export class InvitationsResolver {
  constructor(
    private readonly service: InvitationsService,
    private readonly mails: InvitationMailsService,
    private readonly imports: InvitationImportService,
  ) {}

  @Query(() => InvitationPage, { description: 'IN3 Invitations' })
  async invitations(@Ctx() ctx: RequestContext, @Args() args: InvitationListQuery) {
    const page = await this.service.list(ctx, args);
    return { items: page.items, totalResults: page.totalResults };
  }

  @Query(() => Invitation, { description: 'IN4 An invitation' })
  invitation(@Ctx() ctx: RequestContext, @id() invitationId: string) {
    return this.service.get(ctx, invitationId);
  }

  @Query(() => PublicInvitation, { description: 'IN1 An invitation by its token (public)' })
  publicInvitation(@Ctx() ctx: RequestContext, @Args('token') token: string) {
    return this.service.publicGet(ctx, token);
  }

  @Query(() => InvitationImportJob, { description: 'IN14 An import job' })
  invitationImportJob(@Ctx() ctx: RequestContext, @Args() args: ImportJobArgs) {
    return this.imports.job(ctx, args.jobId, args.results);
  }

  @Query(() => [InvitationMail], { description: 'IN17 The mails of an invitation' })
  invitationMails(@Ctx() ctx: RequestContext, @id() invitationId: string) {
    return this.mails.mailsOf(ctx, invitationId);
  }

  @Mutation(() => Invitation, { description: 'IN7 Create an invitation' })
  createInvitation(@Ctx() ctx: RequestContext, @Args('input') input: CreateInvitationInput) {
    return this.service.create(ctx, input);
  }

  @Mutation(() => InvitationValidation, { description: 'IN8 Validate an invitation' })
  validateInvitation(@Ctx() ctx: RequestContext, @Args('input') input: CreateInvitationInput) {
    return this.service.validate(ctx, input);
  }

  @Mutation(() => InvitationsDeleted, { description: 'IN5 Delete an invitation' })
  deleteInvitation(@Ctx() ctx: RequestContext, @id() invitationId: string) {
    return this.service.remove(ctx, invitationId);
  }

  @Mutation(() => InvitationsDeleted, { description: 'IN6 Delete several invitations' })
  deleteInvitations(@Ctx() ctx: RequestContext, @Args('input') input: DeleteInvitationsInput) {
    return this.service.removeMany(ctx, input.ids);
  }

  @Mutation(() => PublicInvitation, { description: 'IN2 Reject an invitation (public)' })
  rejectInvitation(@Ctx() ctx: RequestContext, @Args('token') token: string) {
    return this.service.publicReject(ctx, token);
  }

  @Mutation(() => InvitationMailsQueued, { description: 'IN9 Send the invitation mail' })
  sendInvitationMails(@Ctx() ctx: RequestContext, @Args('input') input: InvitationMailsInput) {
    return this.mails.send(ctx, input.ids);
  }

  @Mutation(() => InvitationMailsQueued, {
    description: 'IN10 Send the invitation mail to a filter',
  })
  sendInvitationMailsFiltered(
    @Ctx() ctx: RequestContext,
    @Args('input') input: InvitationMailsFilterInput,
  ) {
    return this.mails.sendFiltered(ctx, input);
  }

  @Mutation(() => InvitationMailsQueued, { description: 'IN11 Send a free-text mail' })
  sendInvitationMailsFreeText(
    @Ctx() ctx: RequestContext,
    @Args('input') input: InvitationFreeTextMailInput,
  ) {
    return this.mails.freeText(ctx, input);
  }

  @Mutation(() => Invitation, {
    description: 'IN12 Set the information data of the invitee (a JSON object, at most 16 KB)',
  })
  setInviteeInformation(
    @Ctx() ctx: RequestContext,
    @id() invitationId: string,
    @Args('information', { type: () => JSONObject }) information: Record<string, unknown>,
  ) {
    return this.service.setInformation(ctx, invitationId, information);
  }

  @Mutation(() => [Invitation], { description: 'IN16 Change the status of invitations' })
  setInvitationsStatus(@Ctx() ctx: RequestContext, @Args('input') input: InvitationsStatusInput) {
    return this.service.setStatus(ctx, input.ids, input.status);
  }

  /** Federation reference to the events subgraph's Event. */
  @ResolveField(() => EventRef)
  event(@Parent() inv: Invitation): EventRef {
    return { __typename: 'Event', id: inv.eventId } as EventRef;
  }

  /** Federation reference to crm-people's Person (null for an invitation by address). */
  @ResolveField(() => PersonRef, { nullable: true })
  person(@Parent() inv: Invitation): PersonRef | null {
    return inv.personId ? ({ __typename: 'Person', id: inv.personId } as PersonRef) : null;
  }
}
