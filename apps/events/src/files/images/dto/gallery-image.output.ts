import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { GALLERY_SIZES } from '../gallery-rendering';

/** One size of a gallery image. */
@ObjectType()
export class GalleryImageSize {
  @ApiProperty({ enum: GALLERY_SIZES, example: 'detail' })
  @Field({ description: `One of ${GALLERY_SIZES.join(', ')}` })
  size!: string;
  @ApiProperty({ example: 1280 }) @Field(() => Int) width!: number;
  @ApiProperty({ example: 720 }) @Field(() => Int) height!: number;
  @ApiProperty({ example: 'image/webp' }) @Field() contentType!: string;
  @ApiProperty({ description: 'Size in bytes' }) @Field(() => Int) bytes!: number;
  @ApiProperty({
    description: 'Address of the bytes, relative to the API host',
    example: '/v1/crm/events/{id}/images/{imageId}?size=detail',
  })
  @Field()
  url!: string;
}

/** An image of an event's or a website's gallery (E15, E16, W14, W15). */
@ObjectType('GalleryImage')
export class GalleryImageOutput {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ format: 'uuid', description: 'The event or website' })
  @Field(() => ID)
  ownerId!: string;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  fileName!: string | null;
  @ApiProperty({ description: 'Order in the gallery (upload order)' })
  @Field(() => Int)
  position!: number;
  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  createdBy!: string | null;
  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ type: [GalleryImageSize] })
  @Field(() => [GalleryImageSize])
  sizes!: GalleryImageSize[];
}
