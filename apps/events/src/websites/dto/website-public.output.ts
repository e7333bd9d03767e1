import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { WebsiteConfig } from './website.output';

// The public shapes (W8-W10): what a portal's visitors may see. Dedicated classes, built field by
// field, never a spread of a row: no note, no orga tags, no createdBy/modifiedBy, no other
// tenant's or unpublished website, no online meeting link (attendees get it with their booking).

export class PublicEntry {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() text!: string;
}

export class PublicTag extends PublicEntry {
  @ApiPropertyOptional({ type: String, nullable: true }) color!: string | null;
}

export class PublicWebsiteLink {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() url!: string;
}

export class PublicVenue {
  @ApiPropertyOptional({ type: String, nullable: true }) name!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) street!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) zip!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) city!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) country!: string | null;
}

export class PublicOnlineMeeting {
  @ApiProperty({ description: 'An id of the online meeting platforms vendor list' })
  platformId!: string;
}

export class PublicContributor {
  @ApiProperty() name!: string;
  @ApiPropertyOptional({ type: PublicEntry, nullable: true }) role!: PublicEntry | null;
}

export class PublicContactPerson {
  @ApiPropertyOptional({ type: String, nullable: true }) salutation!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) title!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) firstname!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) lastname!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) position!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) email!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) phone!: string | null;
}

export class PublicImageSize {
  @ApiProperty({ example: 'detail' }) size!: string;
  @ApiProperty() width!: number;
  @ApiProperty() height!: number;
  @ApiProperty({
    description: 'Public address of the bytes, relative to the API host (tenant header required)',
    example: '/v1/crm/websites/public/events/{eventId}/images/{imageId}?size=detail',
  })
  url!: string;
}

export class PublicImage {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty({ type: [PublicImageSize] }) sizes!: PublicImageSize[];
}

/** W8: a published event on at least one published website of the tenant. */
export class PublicEvent {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() title!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) subtitle!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) description!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' }) startsAt!:
    string | null;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' }) endsAt!:
    string | null;
  @ApiProperty({ example: 'Europe/Berlin' }) timeZone!: string;
  @ApiPropertyOptional({ type: PublicVenue, nullable: true }) venue!: PublicVenue | null;
  @ApiPropertyOptional({ type: PublicOnlineMeeting, nullable: true })
  onlineMeeting!: PublicOnlineMeeting | null;
  @ApiPropertyOptional({ type: Number, nullable: true }) capacity!: number | null;
  @ApiPropertyOptional({ type: PublicEntry, nullable: true }) category!: PublicEntry | null;
  @ApiProperty({ type: [PublicContributor] }) contributors!: PublicContributor[];
  @ApiPropertyOptional({ type: PublicContactPerson, nullable: true })
  contactPerson!: PublicContactPerson | null;
  @ApiProperty({ type: [PublicTag], description: 'Portal tags (orga tags are internal)' })
  portalTags!: PublicTag[];
  @ApiProperty({ description: 'draft | scheduled | cancelled | completed' }) status!: string;
  @ApiPropertyOptional({ type: String, nullable: true, format: 'date-time' }) publishedAt!:
    string | null;
  @ApiProperty({ type: [PublicWebsiteLink], description: 'Its published websites only' })
  websites!: PublicWebsiteLink[];
  @ApiProperty({ type: [PublicImage], description: 'Its gallery (E15), with public addresses' })
  images!: PublicImage[];
}

/** W10: a published website's public configuration. */
export class PublicWebsite {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty() url!: string;
  @ApiPropertyOptional({ type: String, nullable: true }) description!: string | null;
  @ApiPropertyOptional({ type: String, nullable: true }) language!: string | null;
  @ApiProperty({ type: WebsiteConfig }) config!: WebsiteConfig;
  @ApiProperty({
    type: [PublicImage],
    description: 'Its gallery (W14), with public addresses; config.logoImageId names one',
  })
  images!: PublicImage[];
}

/** One field of a public booking form. */
export class PublicBookingFormField {
  @ApiProperty({ example: 'dietary-needs' }) key!: string;
  @ApiProperty({ example: 'Dietary needs' }) label!: string;
  @ApiProperty({ example: 'text' }) type!: string;
  @ApiProperty() required!: boolean;
  @ApiPropertyOptional({
    type: [String],
    nullable: true,
    description: 'The choices of a select field',
  })
  options!: string[] | null;
}

/** W9: the booking form a published event uses (no field set: no fields). */
export class PublicBookingForm {
  @ApiProperty({ format: 'uuid' }) eventId!: string;
  @ApiProperty({ type: [PublicBookingFormField] }) fields!: PublicBookingFormField[];
}
