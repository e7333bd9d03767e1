import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { CapacityRepository } from '../capacity/capacity.repository';
import { conflict, problem } from '../bookings/booking-problems';
import { TenantSales } from '../bookings/tenant-sales';
import type { CreateHoldInput } from './dto/hold.input';
import type { SeatHold } from './dto/hold.output';
import { toSeatHold } from './hold.mapper';
import { HoldsRepository } from './holds.repository';

/**
 * BK18-BK20: seats held while a buyer fills in the booking form. A hold is decided by its
 * tenant's writer like a booking (TenantSales), so holds and bookings of an on-sale share one
 * order and one count; BK1 with `holdToken` turns it into a booking.
 */
@Injectable()
export class HoldsService {
  constructor(
    private readonly sales: TenantSales,
    private readonly holds: HoldsRepository,
    private readonly capacity: CapacityRepository,
    private readonly i18n: I18nService,
  ) {}

  async create(ctx: RequestContext, input: CreateHoldInput, now = new Date()): Promise<SeatHold> {
    const outcome = await this.sales.hold({
      kind: 'hold',
      tenantId: ctx.tenantId,
      language: ctx.language,
      eventId: input.eventId.toLowerCase(),
      input,
      now,
    });
    switch (outcome.kind) {
      case 'held':
        return outcome.hold;
      case 'eventGone':
        throw this.notFound(ctx, 'event', input.eventId);
      case 'refused':
        throw outcome.error;
    }
  }

  async find(ctx: RequestContext, token: string): Promise<SeatHold> {
    const hold = await this.holds.find(ctx.tenantId, token);
    if (!hold) throw this.notFound(ctx, 'hold', token);
    return toSeatHold(hold);
  }

  /**
   * Gives an active hold's seats back at once (the buyer left). Releasing a released or expired
   * hold again changes nothing; a hold that became a booking is a 409 (cancel the booking).
   */
  async release(ctx: RequestContext, token: string): Promise<void> {
    const released = await this.holds.transaction(async (tx) => {
      const hold = await this.holds.release(tx, ctx.tenantId, token);
      if (hold)
        await this.capacity.shift(tx, hold.tenantId, hold.eventId, {
          held: hold.seats.map((s) => ({ ...s, count: -s.count })),
        });
      return hold;
    });
    if (released) return;
    const hold = await this.holds.find(ctx.tenantId, token);
    if (!hold) throw this.notFound(ctx, 'hold', token);
    if (hold.status === 'confirmed')
      throw conflict('holdNotActive', { status: hold.status }, [
        problem('token', 'holdNotActive', { status: hold.status }),
      ]);
  }

  private notFound(ctx: RequestContext, resource: 'event' | 'hold', id: string) {
    const name = this.i18n.t(`bookings.resource.${resource}`, { lang: ctx.language });
    return AppException.notFound(name as string, id.slice(0, 100));
  }
}
