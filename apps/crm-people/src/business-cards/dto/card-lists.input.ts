import { Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  IsBoolean,
  IsDefined,
  IsEmail,
  IsNotEmpty,
  IsOptional,
  IsString,
  MaxLength,
  ValidateNested,
} from 'class-validator';

// Items of a card's phones, e-mails and positions (kept as ordered lists on the card).

export const CARD_TEXT_MAX = 200;

const optionalText = (max = CARD_TEXT_MAX) =>
  ApiPropertyOptional({ type: String, nullable: true, maxLength: max });
const optionalFlag = (description?: string) =>
  ApiPropertyOptional({ type: Boolean, nullable: true, description });

@InputType('CardPhoneInput')
export class CardPhoneInput {
  @optionalFlag('At most one favorite per card: the last one marked wins')
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isFavorite?: boolean | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 50, example: 'mobile' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  type?: string | null;

  @ApiProperty({
    maxLength: 50,
    example: '+49 30 1234567',
    description:
      'Validated and stored in E.164; without a country prefix the region of the favorite ' +
      "address's countryCode applies, else DE",
  })
  @Field(() => String)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(50)
  number!: string;
}

/** The type of an e-mail: a free { id, text } pair (no settings list names e-mail types). */
@InputType('CardEmailTypeInput')
export class CardEmailTypeInput {
  @ApiProperty({ maxLength: 100, example: 'business' })
  @Field(() => ID)
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  id!: string;

  @optionalText()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(CARD_TEXT_MAX)
  text?: string | null;
}

@InputType('CardEmailInput')
export class CardEmailInput {
  @ApiPropertyOptional({ type: CardEmailTypeInput, nullable: true })
  @Field(() => CardEmailTypeInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardEmailTypeInput)
  type?: CardEmailTypeInput | null;

  @optionalFlag('At most one favorite per card: the last one marked wins')
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isFavorite?: boolean | null;

  @ApiProperty({ maxLength: 254, example: 'anna.schmidt@example.com' })
  @Field(() => String)
  @IsDefined()
  @IsString()
  @IsEmail()
  @MaxLength(254)
  mail!: string;
}

@InputType('BusinessPositionInput')
export class BusinessPositionInput {
  @optionalText()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(CARD_TEXT_MAX)
  department?: string | null;

  @optionalText()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(CARD_TEXT_MAX)
  position?: string | null;

  @optionalFlag('At most one favorite per card: the last one marked wins')
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isFavorite?: boolean | null;
}
