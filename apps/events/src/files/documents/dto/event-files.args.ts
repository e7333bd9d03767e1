import { ArgsType, Field, ID } from '@nestjs/graphql';
import { IsDefined, IsString } from 'class-validator';
import { PageQuery } from '@crm/paging';

/** GraphQL arguments of eventFiles: the event and the paging of E13 GET. */
@ArgsType()
export class EventFilesArgs extends PageQuery {
  @Field(() => ID)
  @IsDefined()
  @IsString()
  eventId!: string;
}
