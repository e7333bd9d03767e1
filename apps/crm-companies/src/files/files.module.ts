import { Module } from '@nestjs/common';
import { CompanyLookupModule } from '../companies/company-lookup.module';

/** Logos (C28) and documents (C31, C32). */
@Module({
  imports: [CompanyLookupModule],
  controllers: [],
  providers: [],
})
export class FilesModule {}
