import { Module } from '@nestjs/common';
import { CompanyLookupModule } from '../companies/company-lookup.module';

/** Company-to-company relations (C29, C30). */
@Module({
  imports: [CompanyLookupModule],
  controllers: [],
  providers: [],
})
export class CompanyRelationsModule {}
