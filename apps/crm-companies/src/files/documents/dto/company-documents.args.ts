import { ArgsType, Field, ID } from '@nestjs/graphql';
import { IsDefined, IsString } from 'class-validator';
import { PageQuery } from '@crm/paging';

/** GraphQL arguments of companyDocuments: the company and the paging of C31 GET. */
@ArgsType()
export class CompanyDocumentsArgs extends PageQuery {
  @Field(() => ID)
  @IsDefined()
  @IsString()
  companyId!: string;
}
