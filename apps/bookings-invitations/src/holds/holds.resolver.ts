import { Args, Mutation, Query, Resolver } from '@nestjs/graphql';
import { Ctx, RequestContext } from '@crm/request-context';
import { CreateHoldInput } from './dto/hold.input';
import { SeatHold } from './dto/hold.output';
import { HoldsService } from './holds.service';

/** BK18-BK20 over GraphQL: the same service, the same rules. */
@Resolver(() => SeatHold)
export class HoldsResolver {
  constructor(private readonly holds: HoldsService) {}

  @Mutation(() => SeatHold, {
    description: 'BK18 Hold seats, with the rules of POST /bookings/public/holds',
  })
  holdSeats(@Ctx() ctx: RequestContext, @Args('input') input: CreateHoldInput) {
    return this.holds.create(ctx, input);
  }

  @Query(() => SeatHold, { description: 'BK19 A seat hold by its token' })
  seatHold(@Ctx() ctx: RequestContext, @Args('token') token: string) {
    return this.holds.find(ctx, token);
  }

  @Mutation(() => Boolean, {
    description: 'BK20 Release a seat hold (true; see DELETE /bookings/public/holds/{token})',
  })
  async releaseSeatHold(@Ctx() ctx: RequestContext, @Args('token') token: string) {
    await this.holds.release(ctx, token);
    return true;
  }
}
