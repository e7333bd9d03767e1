import { HoldMetrics } from './hold-metrics';
import { Module } from '@nestjs/common';
import { BookingsModule } from '../bookings/bookings.module';
import { HoldsPublicController } from './holds-public.controller';
import { HoldsResolver } from './holds.resolver';
import { HoldsService } from './holds.service';

/**
 * BK18-BK20: the public seat-hold operations. The holds' table and their expiry live in
 * HoldsDataModule (the bookings' writer needs them, and this module needs the writer).
 */
@Module({
  imports: [BookingsModule],
  controllers: [HoldsPublicController],
  providers: [HoldMetrics, HoldsService, HoldsResolver],
})
export class HoldsModule {}
