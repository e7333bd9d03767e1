import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsDefined, IsISO8601, IsOptional, IsString, IsUUID, ValidateIf } from 'class-validator';
import { IdsInput, PageParam, PageSizeParam, SortParam } from '@crm/paging';

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
export class DeleteCompanyManagersInput extends IdsInput({ required: false, each: 'uuid' }) {}

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
 * the names of people and roles live in crm-people, so PageQuery's fields one by one.
 */
@ArgsType()
export class CompanyManagersQuery {
  @PageParam()
  page?: number;

  @PageSizeParam()
  pageSize?: number;

  @SortParam(
    `Comma list of ${MANAGER_SORT_FIELDS.join(', ')}; \`-\` for descending (default: dateCreated)`,
  )
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
