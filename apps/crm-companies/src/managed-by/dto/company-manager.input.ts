import { ArgsType, Field, ID, InputType, Int } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsDefined,
  IsInt,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  Max,
  MaxLength,
  Min,
  ValidateIf,
} from 'class-validator';
import { BATCH_MAX } from '@crm/errors';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '@crm/paging';

const PERSON = 'A person of crm-people (confirmed over NATS)';
const ROLE =
  'An entry of the people settings list manager-roles, system or own (GET /people-settings/manager-roles; confirmed over NATS)';
const date = (description?: string) =>
  ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description });

/** M2, M3: a person responsible for the company in a manager role. */
@InputType()
export class CreateCompanyManagerInput {
  @ApiProperty({ format: 'uuid', description: PERSON })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  personId!: string;

  @ApiProperty({ format: 'uuid', description: ROLE })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  managerRoleId!: string;

  @date()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string | null;

  @date('Not before since')
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string | null;
}

/** M5: the fields of M2; an absent field stays as it is, null clears since or until. */
@InputType()
export class UpdateCompanyManagerInput {
  @ApiPropertyOptional({ format: 'uuid', description: `${PERSON}; cannot be null` })
  @Field(() => ID, { nullable: true })
  @ValidateIf((o: UpdateCompanyManagerInput) => o.personId !== undefined)
  @IsUUID()
  personId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: `${ROLE}; cannot be null` })
  @Field(() => ID, { nullable: true })
  @ValidateIf((o: UpdateCompanyManagerInput) => o.managerRoleId !== undefined)
  @IsUUID()
  managerRoleId?: string;

  @date('null clears')
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  since?: string | null;

  @date('Not before since; null clears')
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  until?: string | null;
}

/** M4: one item of a batch update. */
@InputType()
export class UpdateCompanyManagerItemInput extends UpdateCompanyManagerInput {
  @ApiProperty({ format: 'uuid', description: 'The relation to update' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  id!: string;
}

/** M6: `{ ids }`, 1 to 1000 relation ids of the company. */
export class DeleteCompanyManagersInput {
  @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: BATCH_MAX })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(BATCH_MAX)
  @IsUUID('all', { each: true })
  ids!: string[];
}

export const MANAGER_SORT_FIELDS = [
  'dateCreated',
  'dateModified',
  'since',
  'until',
  'personId',
  'managerRoleId',
  'id',
] as const;

/**
 * M1 query (REST query parameters and GraphQL arguments): paging, sort and two filters. No `q`:
 * the names of people and roles live in crm-people.
 */
@ArgsType()
export class CompanyManagersQuery {
  @ApiPropertyOptional({ minimum: 1, default: 1, description: '1-based page number' })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  page?: number;

  @ApiPropertyOptional({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE })
  @Field(() => Int, { nullable: true })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(MAX_PAGE_SIZE)
  pageSize?: number;

  @ApiPropertyOptional({
    description: `Comma list of ${MANAGER_SORT_FIELDS.join(', ')}; \`-\` for descending (default: dateCreated)`,
  })
  @Field({ nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  sort?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the relations of this person' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  personId?: string;

  @ApiPropertyOptional({ format: 'uuid', description: 'Only the relations in this role' })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  managerRoleId?: string;
}

/** GraphQL companyManagers(companyId, ...): a malformed companyId is a 404, as in a REST path. */
@ArgsType()
export class CompanyManagersArgs extends CompanyManagersQuery {
  @Field(() => ID)
  @IsDefined()
  @IsString()
  companyId!: string;
}
