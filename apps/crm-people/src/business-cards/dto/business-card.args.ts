import { ArgsType, Field, ID } from '@nestjs/graphql';
import { IsDefined, IsString } from 'class-validator';
import { PageQuery } from '@crm/paging';
import { DeleteBusinessCardsInput } from './business-card.input';

// GraphQL arguments validated as one object: personId sits beside the paging or the ids.
// A malformed personId is not a 400 but a 404, as in a REST path.

@ArgsType()
export class BusinessCardsArgs extends PageQuery {
  @Field(() => ID)
  @IsDefined()
  @IsString()
  personId!: string;
}

@ArgsType()
export class DeleteBusinessCardsArgs extends DeleteBusinessCardsInput {
  @Field(() => ID)
  @IsDefined()
  @IsString()
  personId!: string;
}
