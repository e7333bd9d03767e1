import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { LOGO_SIZES } from '../logo-rendering';

/** One size of a company's logo. */
@ObjectType()
export class CompanyLogoImage {
  @ApiProperty({ enum: LOGO_SIZES, example: 'detail' })
  @Field({ description: `One of ${LOGO_SIZES.join(', ')}` })
  size!: string;

  @ApiProperty({ example: 480 }) @Field(() => Int) width!: number;
  @ApiProperty({ example: 240 }) @Field(() => Int) height!: number;
  @ApiProperty({ example: 'image/webp' }) @Field() contentType!: string;

  @ApiProperty({ description: 'Size in bytes' })
  @Field(() => Int)
  bytes!: number;

  @ApiProperty({
    description: 'Address of the bytes (C28 GET), relative to the API host',
    example: '/v1/crm/companies/{id}/logo?size=detail',
  })
  @Field()
  url!: string;
}

/** A company's logo: its sizes, with their addresses (C28; GraphQL companyLogo). */
@ObjectType()
export class CompanyLogo {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) companyId!: string;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  dateModified!: string | null;

  @ApiProperty({ type: [CompanyLogoImage] })
  @Field(() => [CompanyLogoImage])
  images!: CompanyLogoImage[];
}
