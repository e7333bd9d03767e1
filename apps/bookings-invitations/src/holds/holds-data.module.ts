import { Module } from '@nestjs/common';
import { HoldExpiry } from './hold-expiry';
import { HoldsRepository } from './holds.repository';

/** The SeatHold table and the sweeper that puts expired holds back on sale. */
@Module({
  providers: [HoldsRepository, HoldExpiry],
  exports: [HoldsRepository],
})
export class HoldsDataModule {}
