import { Field, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { IMAGE_SIZES } from '../image-variants';

/** One size of a person's profile image (P16). */
@ObjectType()
export class ProfileImage {
  @ApiProperty({ enum: IMAGE_SIZES, example: 'detail' })
  @Field({ description: `One of ${IMAGE_SIZES.join(', ')}` })
  size!: string;

  @ApiProperty({ example: 480 })
  @Field(() => Int)
  width!: number;

  @ApiProperty({ example: 480 })
  @Field(() => Int)
  height!: number;

  @ApiProperty({ example: 'image/webp' })
  @Field()
  contentType!: string;

  @ApiProperty({ description: 'Size in bytes' })
  @Field(() => Int)
  bytes!: number;

  @ApiProperty({
    description: 'Address of the bytes (P19), relative to the API host',
    example: '/v1/crm/people/{id}/profile-image/detail',
  })
  @Field()
  url!: string;
}
