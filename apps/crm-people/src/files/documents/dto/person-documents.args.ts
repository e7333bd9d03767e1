import { ArgsType, Field, ID } from '@nestjs/graphql';
import { IsDefined, IsString } from 'class-validator';
import { PageQuery } from '@crm/paging';

/** GraphQL arguments of personDocuments: the person and the paging of P22 GET. */
@ArgsType()
export class PersonDocumentsArgs extends PageQuery {
  @Field(() => ID)
  @IsDefined()
  @IsString()
  personId!: string;
}
