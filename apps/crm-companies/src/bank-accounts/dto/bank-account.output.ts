import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

/** A bank account of a company (C26, C27). */
@ObjectType()
export class CompanyBankAccount {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;

  @ApiProperty({ description: 'Electronic format', example: 'DE89370400440532013000' })
  @Field()
  iban!: string;

  @ApiProperty({
    description: 'Paper format, groups of four',
    example: 'DE89 3704 0044 0532 0130 00',
  })
  @Field()
  ibanFormatted!: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'COBADEFFXXX' })
  @Field(() => String, { nullable: true })
  bic!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  bankName!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true })
  @Field(() => String, { nullable: true })
  accountHolder!: string | null;

  @ApiProperty({ description: 'A company with accounts has exactly one favorite' })
  @Field()
  isFavorite!: boolean;

  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
  @ApiProperty({ format: 'date-time' }) @Field() dateModified!: string;
}

@ObjectType()
export class CompanyBankAccountPage {
  @Field(() => [CompanyBankAccount]) items!: CompanyBankAccount[];
  @Field(() => Int) totalResults!: number;
}

/** Answer of C27 DELETE. */
@ObjectType()
export class CompanyBankAccountDeleted {
  @ApiProperty({ format: 'uuid', description: 'The account removed' })
  @Field(() => ID)
  id!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'The account that became the favorite because the favorite was removed',
  })
  @Field(() => ID, { nullable: true })
  newFavoriteId!: string | null;
}
