import { Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { IsUUID } from 'class-validator';
import { IdsInput } from '@crm/paging';
import { CreatePersonInput } from './person.input';

/** P8: one element of a batch update, the P5 body plus the id of the person. */
@InputType('UpdatePersonItemInput')
export class UpdatePersonItemInput extends CreatePersonInput {
  @ApiProperty({ format: 'uuid', description: 'The person to update' })
  @Field(() => ID)
  @IsUUID()
  id!: string;
}

/** P10: the people to delete (malformed ids: 400 by index, from the service). */
export class DeletePeopleInput extends IdsInput({ required: false, each: 'string' }) {}
