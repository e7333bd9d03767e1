import { Module } from '@nestjs/common';
import { ListAllocations } from './list-allocations';
import { WaitingListRepository } from './waiting-list.repository';

/**
 * The WaitingListEntry table and the split of free seats between the list and the public: the
 * bookings' writer needs the split, and the waiting list's operations need the writer's module.
 */
@Module({
  providers: [WaitingListRepository, ListAllocations],
  exports: [WaitingListRepository, ListAllocations],
})
export class WaitingListDataModule {}
