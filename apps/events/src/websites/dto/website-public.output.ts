import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WebsiteConfig } from './website.output';

// The public shapes (W8-W10): what a portal's visitors may see. Dedicated classes, built field by
// field, never a spread of a row: no note, no orga tags, no createdBy/modifiedBy, no other
// tenant's or unpublished website, no online meeting link (attendees get it with their booking).
// The same classes describe REST (OpenAPI) and GraphQL (publicEvent, publicEventBookingForm,
// publicWebsiteConfig).

@ObjectType()
export class PublicEntry {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() text!: string;
}

@ObjectType()
export class PublicTag extends PublicEntry {
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  color!: string | null;
}

@ObjectType()
export class PublicWebsiteLink {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() name!: string;
  @ApiProperty() @Field() url!: string;
}

@ObjectType()
export class PublicVenue {
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  name!: string | null;
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
}

@ObjectType()
export class PublicOnlineMeeting {
  @ApiProperty({ description: 'An id of the online meeting platforms vendor list' })
  @Field({ description: 'An id of the online meeting platforms vendor list' })
  platformId!: string;
}

@ObjectType()
export class PublicContributor {
  @ApiProperty() @Field() name!: string;
  @ApiPropertyOptional({ type: PublicEntry, nullable: true })
  @Field(() => PublicEntry, { nullable: true })
  role!: PublicEntry | null;
}

@ObjectType()
export class PublicContactPerson {
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  salutation!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  title!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  firstname!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  lastname!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  position!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  email!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  phone!: string | null;
}

@ObjectType()
export class PublicImageSize {
  @ApiProperty({ example: 'detail' }) @Field() size!: string;
  @ApiProperty() @Field(() => Int) width!: number;
  @ApiProperty() @Field(() => Int) height!: number;
  @ApiProperty({
    description: 'Public address of the bytes, relative to the API host (tenant header required)',
    example: '/v1/crm/websites/public/events/{eventId}/images/{imageId}?size=detail',
  })
  @Field({
    description: 'Public address of the bytes, relative to the API host (tenant header required)',
  })
  url!: string;
}

@ObjectType()
export class PublicImage {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ type: [PublicImageSize] })
  @Field(() => [PublicImageSize])
  sizes!: PublicImageSize[];
}

/** W8: a published event on at least one published website of the tenant. */
@ObjectType({ description: 'W8 A published event on at least one published website' })
export class PublicEvent {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() title!: string;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  subtitle!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  description!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  @Field(() => String, { nullable: true })
  startsAt!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  @Field(() => String, { nullable: true })
  endsAt!: string | null;
  @ApiProperty({ example: 'Europe/Berlin' }) @Field() timeZone!: string;
  @ApiPropertyOptional({ type: PublicVenue, nullable: true })
  @Field(() => PublicVenue, { nullable: true })
  venue!: PublicVenue | null;
  @ApiPropertyOptional({ type: PublicOnlineMeeting, nullable: true })
  @Field(() => PublicOnlineMeeting, { nullable: true })
  onlineMeeting!: PublicOnlineMeeting | null;
  @ApiPropertyOptional({ type: Number, nullable: true })
  @Field(() => Int, { nullable: true })
  capacity!: number | null;
  @ApiPropertyOptional({ type: PublicEntry, nullable: true })
  @Field(() => PublicEntry, { nullable: true })
  category!: PublicEntry | null;
  @ApiProperty({ type: [PublicContributor] })
  @Field(() => [PublicContributor])
  contributors!: PublicContributor[];
  @ApiPropertyOptional({ type: PublicContactPerson, nullable: true })
  @Field(() => PublicContactPerson, { nullable: true })
  contactPerson!: PublicContactPerson | null;
  @ApiProperty({ type: [PublicTag], description: 'Portal tags (orga tags are internal)' })
  @Field(() => [PublicTag], { description: 'Portal tags (orga tags are internal)' })
  portalTags!: PublicTag[];
  @ApiProperty({ description: 'draft | scheduled | cancelled | completed' })
  @Field({ description: 'draft | scheduled | cancelled | completed' })
  status!: string;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' })
  @Field(() => String, { nullable: true })
  publishedAt!: string | null;
  @ApiProperty({ type: [PublicWebsiteLink], description: 'Its published websites only' })
  @Field(() => [PublicWebsiteLink], { description: 'Its published websites only' })
  websites!: PublicWebsiteLink[];
  @ApiProperty({ type: [PublicImage], description: 'Its gallery (E15), with public addresses' })
  @Field(() => [PublicImage], { description: 'Its gallery (E15), with public addresses' })
  images!: PublicImage[];
}

/** W10: a published website's public configuration. */
@ObjectType({ description: "W10 A published website's public configuration" })
export class PublicWebsite {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() name!: string;
  @ApiProperty() @Field() url!: string;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  description!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  language!: string | null;
  @ApiProperty({ type: WebsiteConfig }) @Field(() => WebsiteConfig) config!: WebsiteConfig;
  @ApiProperty({
    type: [PublicImage],
    description: 'Its gallery (W14), with public addresses; config.logoImageId names one',
  })
  @Field(() => [PublicImage], {
    description: 'Its gallery (W14), with public addresses; config.logoImageId names one',
  })
  images!: PublicImage[];
}

/** One field of a public booking form. */
@ObjectType()
export class PublicBookingFormField {
  @ApiProperty({ example: 'dietary-needs' }) @Field() key!: string;
  @ApiProperty({ example: 'Dietary needs' }) @Field() label!: string;
  @ApiProperty({ example: 'text' }) @Field() type!: string;
  @ApiProperty() @Field() required!: boolean;
  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    description: 'The choices of a select field',
  })
  @Field(() => [String], { nullable: true, description: 'The choices of a select field' })
  options!: string[] | null;
}

/** W9: the booking form a published event uses (no field set: no fields). */
@ObjectType({ description: 'W9 The booking form a published event uses (none set: no fields)' })
export class PublicBookingForm {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;
  @ApiProperty({ type: [PublicBookingFormField] })
  @Field(() => [PublicBookingFormField])
  fields!: PublicBookingFormField[];
}
