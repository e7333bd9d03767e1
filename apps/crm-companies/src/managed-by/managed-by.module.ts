import { Module } from '@nestjs/common';
import { CompanyLookupModule } from '../companies/company-lookup.module';

/** Managed-by-person relations (M1-M7) and their upkeep on people deleted or merged. */
@Module({
  imports: [CompanyLookupModule],
  controllers: [],
  providers: [],
})
export class ManagedByModule {}
