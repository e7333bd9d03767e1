import { Module } from '@nestjs/common';
import { CompanyLookupModule } from '../companies/company-lookup.module';
import { CompanyManagedByResolver } from './company-managed-by.resolver';
import { ManagedByChangeService } from './managed-by-change.service';
import { ManagedByController } from './managed-by.controller';
import { ManagedByEvents } from './managed-by.events';
import { ManagedByRepository } from './managed-by.repository';
import { ManagedByResolver } from './managed-by.resolver';
import { ManagedByService } from './managed-by.service';
import { ManagerChecks } from './manager-checks.service';
import { TombstonesRepository } from './tombstones.repository';

/** Managed-by-person relations (M1-M7) and their upkeep on people deleted or merged. */
@Module({
  imports: [CompanyLookupModule],
  controllers: [ManagedByController],
  providers: [
    ManagedByRepository,
    ManagerChecks,
    ManagedByService,
    ManagedByChangeService,
    ManagedByResolver,
    CompanyManagedByResolver,
    ManagedByEvents,
    TombstonesRepository,
  ],
})
export class ManagedByModule {}
