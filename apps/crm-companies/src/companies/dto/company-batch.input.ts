import { Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsString, IsUUID } from 'class-validator';
import { BATCH_MAX } from '@crm/errors';
import { IdsInput } from '@crm/paging';
import { TAGS_MAX, UpdateCompanyInput } from './company.input';

/** C8 PUT: one element of a batch update, the C5 body plus the id of the company. */
@InputType('UpdateCompanyItemInput')
export class UpdateCompanyItemInput extends UpdateCompanyInput {
  @ApiProperty({ format: 'uuid', description: 'The company to update' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  id!: string;
}

/** C7: the companies to delete (malformed ids: 400 by index, from the service). */
export class DeleteCompaniesInput extends IdsInput({ required: true, each: 'string' }) {}

/** C12, C13: tags (entries of the `tags` list) to add to or remove from selected companies. */
export class CompanyTagsSelectionInput {
  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: BATCH_MAX })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BATCH_MAX)
  @IsString({ each: true })
  companyIds!: string[];

  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: TAGS_MAX })
  @IsDefined()
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(TAGS_MAX)
  @IsString({ each: true })
  tagIds!: string[];
}
