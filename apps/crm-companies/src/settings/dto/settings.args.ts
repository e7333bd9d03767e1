import { ArgsType, Field } from '@nestjs/graphql';
import { IsNotEmpty, IsString } from 'class-validator';
import { PageQuery } from '@crm/paging';

/** GraphQL arguments of companySettings: the list and the usual paging. */
@ArgsType()
export class CompanySettingsArgs extends PageQuery {
  @Field({ description: 'The list, as in the REST path: tags, lifecycles, legal-forms, ...' })
  @IsString()
  @IsNotEmpty()
  list!: string;
}
