import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { TEMPLATE_IMAGE_SIZES } from '../template-image-rendering';

const str = () => ApiPropertyOptional({ type: String, nullable: true });

/** One size of a template's image: its address (and, from ES7, its dimensions). */
@ObjectType()
export class TemplateImageSize {
  @ApiProperty({ enum: TEMPLATE_IMAGE_SIZES, example: 'small' })
  @Field({ description: `One of ${TEMPLATE_IMAGE_SIZES.join(', ')}` })
  size!: string;

  @ApiProperty({
    example: '/v1/crm/event-settings/contact-person-templates/{id}/image?size=small',
    description: 'Address of the bytes (ES7 GET), relative to the API host',
  })
  @Field()
  url!: string;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'ES7 answers only' })
  @Field(() => Int, { nullable: true })
  width?: number | null;

  @ApiPropertyOptional({ type: Number, nullable: true, description: 'ES7 answers only' })
  @Field(() => Int, { nullable: true })
  height?: number | null;
}

@ObjectType()
export class TemplateImage {
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  dateModified!: string | null;

  @ApiProperty({ type: [TemplateImageSize] })
  @Field(() => [TemplateImageSize])
  images!: TemplateImageSize[];
}

@ObjectType()
export class ContactPersonTemplate {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() name!: string;
  @str() @Field(() => String, { nullable: true }) salutation!: string | null;
  @str() @Field(() => String, { nullable: true }) title!: string | null;
  @str() @Field(() => String, { nullable: true }) firstname!: string | null;
  @str() @Field(() => String, { nullable: true }) lastname!: string | null;
  @str() @Field(() => String, { nullable: true }) position!: string | null;
  @str() @Field(() => String, { nullable: true }) email!: string | null;
  @str() @Field(() => String, { nullable: true }) phone!: string | null;

  @ApiPropertyOptional({ type: TemplateImage, nullable: true, description: 'null: no image' })
  @Field(() => TemplateImage, { nullable: true })
  image!: TemplateImage | null;

  @str() @Field(() => String, { nullable: true }) createdBy!: string | null;
  @str() @Field(() => String, { nullable: true }) modifiedBy!: string | null;
  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

@ObjectType()
export class ContactPersonTemplatePage {
  @Field(() => [ContactPersonTemplate]) items!: ContactPersonTemplate[];
  @Field(() => Int) totalResults!: number;
}

@ObjectType()
export class TemplateImageDeleted {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty() @Field() deleted!: boolean;
}
