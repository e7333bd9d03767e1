import { Directive, Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Output of M1-M7 and of Company.managedBy. Person and manager role belong to crm-people: this
// service holds their ids only. GraphQL clients get the person through federation
// (CompanyManager.person); the role's text is an entry of GET /people-settings/manager-roles.

/**
 * Federation stub of crm-people's Person: crm-companies knows only the id, crm-people resolves
 * the rest (all references of one response in one `_entities` batch).
 */
@ObjectType('Person')
@Directive('@key(fields: "id", resolvable: false)')
export class CompanyPersonRef {
  @Field(() => ID) id!: string;
}

@ObjectType()
export class CompanyManagerRole {
  @ApiProperty({
    format: 'uuid',
    description:
      'An entry of the people settings list manager-roles (crm-people: GET /people-settings/manager-roles gives its text)',
  })
  @Field(() => ID)
  id!: string;
}

@ObjectType({ description: 'A person of crm-people responsible for a company in a manager role' })
export class CompanyManager {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;

  @ApiProperty({ format: 'uuid', description: 'The managing person (crm-people)' })
  @Field(() => ID)
  personId!: string;

  @ApiProperty({ type: CompanyManagerRole })
  @Field(() => CompanyManagerRole)
  managerRole!: CompanyManagerRole;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  since!: string | null;

  @ApiPropertyOptional({
    type: String,
    format: 'date-time',
    nullable: true,
    description: 'Not before since',
  })
  @Field(() => String, { nullable: true })
  until!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'X-Integration-Name' })
  @Field(() => String, { nullable: true })
  createdBy!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'X-Integration-Name' })
  @Field(() => String, { nullable: true })
  modifiedBy!: string | null;

  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

@ObjectType()
export class CompanyManagerPage {
  @Field(() => [CompanyManager]) items!: CompanyManager[];

  @Field(() => Int, { description: 'Number of relations across all pages' })
  totalResults!: number;
}
