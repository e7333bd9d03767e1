import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Transform, Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsEmail,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  Matches,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { PageParam, PageSizeParam, queryBoolean, SortParam } from '@crm/paging';
import { IdsInput } from '@crm/paging';
import { IsLanguage } from './language.validator';

/** Most portal texts (one per language) a config holds. */
export const TEXTS_MAX = 30;
const HEX_COLOR = /^#[0-9a-fA-F]{6}$/;
const URL_RULES = { protocols: ['http', 'https'], require_protocol: true, require_tld: false };

/** The portal's title and introduction in one language. */
@InputType('WebsiteTextInput')
export class WebsiteTextInput {
  @ApiProperty({ description: 'ISO 639-1 code', example: 'de' })
  @Field()
  @IsDefined()
  @IsString()
  @IsLanguage()
  language!: string;

  @ApiProperty({ maxLength: 200, example: 'Veranstaltungen' })
  @Field()
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  title!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 5000 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  intro?: string | null;
}

/**
 * The portal's public configuration (W10 answers it to the portal). A fixed, validated shape:
 * colours, logo, legal links, contact and the texts per language. Publishing (W12) requires
 * imprintUrl and privacyUrl, and a text in the portal's language.
 */
@InputType('WebsiteConfigInput')
export class WebsiteConfigInput {
  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '#0a5cff',
    pattern: '^#[0-9a-fA-F]{6}$',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @Matches(HEX_COLOR)
  primaryColor?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    example: '#ffffff',
    pattern: '^#[0-9a-fA-F]{6}$',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @Matches(HEX_COLOR)
  secondaryColor?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    format: 'uuid',
    description: 'An image of this website (W14); checked when publishing',
  })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  logoImageId?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 500,
    description: 'Required to publish',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  @IsUrl(URL_RULES)
  imprintUrl?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 500,
    description: 'Required to publish',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  @IsUrl(URL_RULES)
  privacyUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 500 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  @IsUrl(URL_RULES)
  termsUrl?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 320 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(320)
  @IsEmail()
  contactEmail?: string | null;

  @ApiPropertyOptional({
    type: [WebsiteTextInput],
    maxItems: TEXTS_MAX,
    description: 'One per language',
  })
  @Field(() => [WebsiteTextInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(TEXTS_MAX)
  @ValidateNested({ each: true })
  @Type(() => WebsiteTextInput)
  texts?: WebsiteTextInput[] | null;
}

/** W3 POST, W7: a website (event portal). */
@InputType('CreateWebsiteInput')
export class CreateWebsiteInput {
  @ApiProperty({ maxLength: 200, example: 'Events portal' })
  @Field()
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @ApiProperty({
    maxLength: 500,
    example: 'https://events.example.com/',
    description:
      'http or https, without query or fragment. Unique across all tenants by its normalised ' +
      'form: scheme, `www.`, default port and trailing slashes ignored, host lower case.',
  })
  @Field()
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  url!: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 5000 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'ISO 639-1 code',
    example: 'en',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @IsLanguage()
  language?: string | null;

  @ApiPropertyOptional({ type: WebsiteConfigInput })
  @Field(() => WebsiteConfigInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => WebsiteConfigInput)
  config?: WebsiteConfigInput | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 500,
    example: '{websiteUrl}/einladung/{token}',
    description:
      'The portal page an invitation mail links to; `{token}` (required) becomes the ' +
      'invitation’s token, `{websiteUrl}` the website’s url. With both filled in it must be an ' +
      'absolute http(s) url. null or absent: `{websiteUrl}/invitations/{token}`. The page shows ' +
      'the invitation with IN1 and serves `?action=accept` (BK1 with the token) and ' +
      '`?action=reject` (IN2).',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  invitationLinkTemplate?: string | null;
}

/**
 * W4 PUT: fields not given stay as they are; null clears description, language, config and the
 * invitation link template.
 */
@InputType('UpdateWebsiteInput')
export class UpdateWebsiteInput {
  @ApiPropertyOptional({ maxLength: 200 })
  @Field(() => String, { nullable: true })
  @ValidateIf((o: UpdateWebsiteInput) => o.name !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name?: string;

  @ApiPropertyOptional({ maxLength: 500, description: 'As in create' })
  @Field(() => String, { nullable: true })
  @ValidateIf((o: UpdateWebsiteInput) => o.url !== undefined)
  @IsString()
  @IsNotEmpty()
  @MaxLength(500)
  url?: string;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 5000 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(5000)
  description?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'ISO 639-1 code' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @IsLanguage()
  language?: string | null;

  @ApiPropertyOptional({ type: WebsiteConfigInput, description: 'Replaced whole when given' })
  @Field(() => WebsiteConfigInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => WebsiteConfigInput)
  config?: WebsiteConfigInput | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    maxLength: 500,
    example: '{websiteUrl}/einladung/{token}',
    description:
      'The portal page an invitation mail links to; `{token}` (required) becomes the ' +
      'invitation’s token, `{websiteUrl}` the website’s url. With both filled in it must be an ' +
      'absolute http(s) url. null: `{websiteUrl}/invitations/{token}`. The page shows ' +
      'the invitation with IN1 and serves `?action=accept` (BK1 with the token) and ' +
      '`?action=reject` (IN2).',
  })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(500)
  invitationLinkTemplate?: string | null;
}

/** `true`/`false` of a query string as a boolean; anything else stays and fails isBoolean. */
/** W1: paging, sort, text search over name, url and description, and the published flag. */
@ArgsType()
export class WebsiteQuery {
  @PageParam() page?: number;
  @PageSizeParam() pageSize?: number;
  @SortParam(
    'Comma list of name, dateCreated, dateModified, url (`-` for descending); default name',
  )
  sort?: string;

  @ApiPropertyOptional({ description: 'Text search over name, url and description' })
  @Field({ nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  q?: string;

  @ApiPropertyOptional({
    type: Boolean,
    description: 'Only published (true) or unpublished (false)',
  })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @Transform(queryBoolean)
  @IsBoolean()
  published?: boolean;
}

/** W6: the websites to delete. */
@InputType('DeleteWebsitesInput')
export class DeleteWebsitesInput extends IdsInput({ required: true, each: 'string' }) {}

/** W11: where the events of the website go. */
@InputType('MigrateWebsiteInput')
export class MigrateWebsiteInput {
  @ApiProperty({ format: 'uuid', description: 'Another website of the tenant' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  targetWebsiteId!: string;
}

/** W12 */
@InputType('WebsitePublicationInput')
export class WebsitePublicationInput {
  @ApiProperty({
    description: 'true publishes (after the W13 checks, else 409), false unpublishes',
  })
  @Field()
  @IsDefined()
  @IsBoolean()
  published!: boolean;
}

/** W10: the portal's address as it knows it (query and fragment ignored). */
@ArgsType()
export class PublicConfigQuery {
  @ApiProperty({ maxLength: 2000, example: 'https://events.example.com/' })
  @Field()
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(2000)
  url!: string;
}
