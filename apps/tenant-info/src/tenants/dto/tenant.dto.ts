import { Directive, Field, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Output shapes of TI1 (REST and GraphQL share them).

/** Contact details of the client; every field is present, null when unknown. */
@ObjectType()
export class TenantContact {
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  companyName!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  contactPerson!: string | null;

  @ApiPropertyOptional({ type: String, format: 'email', nullable: true })
  @Field(() => String, { nullable: true })
  email!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  phone!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  street!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  zip!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  city!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  country!: string | null;

  @ApiPropertyOptional({ type: String, format: 'uri', nullable: true })
  @Field(() => String, { nullable: true })
  website!: string | null;
}

/** The client (tenant) itself: other subgraphs may reference it by id. */
@ObjectType()
@Directive('@key(fields: "id")')
export class Tenant {
  @ApiProperty({ description: 'The tenant id (X-Service-TenantId)', example: 'demo' })
  @Field(() => ID)
  id!: string;

  @ApiProperty({ example: 'Demo GmbH' })
  @Field()
  name!: string;

  @ApiProperty({ type: TenantContact })
  @Field(() => TenantContact)
  contact!: TenantContact;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Id of the current tariff' })
  @Field(() => String, { nullable: true })
  tariffId!: string | null;

  @ApiProperty({ format: 'date-time' })
  @Field()
  dateCreated!: string;

  @ApiProperty({ format: 'date-time' })
  @Field()
  dateModified!: string;
}
