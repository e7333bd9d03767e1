import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RELATION_DIRECTIONS } from './company-relation.input';

/** The other company of a relation, as a list shows it. */
@ObjectType()
export class CompanyRelationCompany {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() name!: string;
}

/** The relation's type: an entry of relation-types, its text in the caller's language. */
@ObjectType()
export class CompanyRelationTypeRef {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Translated text; null when the entry no longer exists',
  })
  @Field(() => String, { nullable: true })
  text!: string | null;
}

/**
 * A relation between two companies (C29, C30), seen from the company of the path: `outgoing`
 * when it was written on that company (from), `incoming` when on the other one. One row either
 * way: "from is `relationType` of to" (e.g. from is a subsidiary of to).
 */
@ObjectType('CompanyRelation')
export class CompanyRelationView {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;

  @ApiProperty({ enum: RELATION_DIRECTIONS })
  @Field(() => String, { description: 'outgoing or incoming, seen from the company asked about' })
  direction!: 'outgoing' | 'incoming';

  @ApiProperty({ type: CompanyRelationCompany, description: 'The other company' })
  @Field(() => CompanyRelationCompany)
  company!: CompanyRelationCompany;

  @ApiProperty({ type: CompanyRelationTypeRef })
  @Field(() => CompanyRelationTypeRef)
  relationType!: CompanyRelationTypeRef;

  @ApiProperty({ format: 'uuid', description: 'The company the relation was written on' })
  @Field(() => ID)
  fromCompanyId!: string;

  @ApiProperty({ format: 'uuid', description: 'The company it points to' })
  @Field(() => ID)
  toCompanyId!: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  since!: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  until!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  note!: string | null;

  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

@ObjectType()
export class CompanyRelationPage {
  @Field(() => [CompanyRelationView]) items!: CompanyRelationView[];
  @Field(() => Int) totalResults!: number;
}
