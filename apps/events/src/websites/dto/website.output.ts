import { Directive, Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Output shapes of websites (W1-W7, W11-W13). The same classes describe REST (OpenAPI) and
// GraphQL. The public shapes (W8-W10) are in website-public.output.ts: never these.

@ObjectType()
export class WebsiteText {
  @ApiProperty({ example: 'de' }) @Field() language!: string;
  @ApiProperty() @Field() title!: string;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  intro!: string | null;
}

/** The portal's public configuration; every field is present (null when not set). */
@ObjectType()
export class WebsiteConfig {
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  primaryColor!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  secondaryColor!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'uuid' })
  @Field(() => ID, { nullable: true })
  logoImageId!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  imprintUrl!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  privacyUrl!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  termsUrl!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  contactEmail!: string | null;
  @ApiProperty({ type: [WebsiteText] }) @Field(() => [WebsiteText]) texts!: WebsiteText[];
}

/** A website (event portal) of the tenant. */
@ObjectType()
@Directive('@key(fields: "id")')
export class Website {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() name!: string;
  @ApiProperty({ description: 'As given' }) @Field() url!: string;
  @ApiProperty({
    description: 'Normalised url (unique across all tenants): host without www., port, path',
    example: 'events.example.com',
  })
  @Field()
  urlKey!: string;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  description!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  language!: string | null;
  @ApiProperty({ type: WebsiteConfig }) @Field(() => WebsiteConfig) config!: WebsiteConfig;
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'As given; null: the default `{websiteUrl}/invitations/{token}`',
  })
  @Field(() => String, { nullable: true })
  invitationLinkTemplate!: string | null;
  @ApiProperty({
    description:
      'The link of an invitation mail, `{websiteUrl}` filled in; `{token}` becomes the token',
    example: 'https://events.example.com/invitations/{token}',
  })
  @Field()
  invitationLink!: string;
  @ApiProperty() @Field() published!: boolean;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  @Field(() => String, { nullable: true })
  publishedAt!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  createdBy!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  modifiedBy!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'uuid' })
  @Field(() => String, { nullable: true })
  createdByUserId!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'uuid' })
  @Field(() => String, { nullable: true })
  modifiedByUserId!: string | null;
  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

@ObjectType()
export class WebsitePage {
  @Field(() => [Website]) items!: Website[];
  @Field(() => Int) totalResults!: number;
}

@ObjectType()
export class WebsiteProblem {
  @ApiProperty({ example: 'config.imprintUrl' }) @Field() field!: string;
  @ApiProperty({ example: 'isDefined' }) @Field() rule!: string;
  @ApiProperty() @Field() message!: string;
}

/** W7, W13: every problem, nothing written. */
@ObjectType()
export class WebsiteValidationResult {
  @ApiProperty() @Field() valid!: boolean;
  @ApiProperty({ type: [WebsiteProblem] }) @Field(() => [WebsiteProblem]) errors!: WebsiteProblem[];
}

/** W5, W6 */
@ObjectType()
export class WebsitesDeleted {
  @ApiProperty({ type: [String], format: 'uuid' }) @Field(() => [ID]) deletedIds!: string[];
}

/** W11 */
@ObjectType()
export class WebsiteMigrated {
  @ApiProperty({ format: 'uuid', description: 'The website the events left (kept, unpublished)' })
  @Field(() => ID)
  websiteId!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) targetWebsiteId!: string;
  @ApiProperty({ description: 'Events that were on the website and are now on the target' })
  @Field(() => Int)
  movedEvents!: number;
  @ApiProperty({ description: 'Of those, events that were on the target already (one row kept)' })
  @Field(() => Int)
  alreadyOnTarget!: number;
}
