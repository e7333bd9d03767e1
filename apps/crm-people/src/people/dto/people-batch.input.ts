import { Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsString, IsUUID } from 'class-validator';
import { CreatePersonInput } from './person.input';

/** P8: one element of a batch update, the P5 body plus the id of the person. */
@InputType('UpdatePersonItemInput')
export class UpdatePersonItemInput extends CreatePersonInput {
  @ApiProperty({ format: 'uuid', description: 'The person to update' })
  @Field(() => ID)
  @IsUUID()
  id!: string;
}

/** P10: the people to delete. */
export class DeletePeopleInput {
  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: 1000 })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(1000)
  @IsString({ each: true })
  ids!: string[];
}
