import { Module } from '@nestjs/common';
import { CompanyLookup } from './company-lookup.service';

/** CompanyLookup for the modules of /companies/{id}/... (contact data, files, managers...). */
@Module({ providers: [CompanyLookup], exports: [CompanyLookup] })
export class CompanyLookupModule {}
