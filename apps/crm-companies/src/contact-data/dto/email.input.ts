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
  IsUUID,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { Trimmed } from './trim';

/** RFC 5321: 64 (local part) + 1 + 255 (domain). */
export const EMAIL_MAX = 320;

/**
 * An entry of the company settings list email-types, by id. `text` is accepted so that a client
 * can send back what it read ({ id, text }); it is ignored: the text comes from the list.
 */
@InputType()
export class CompanyEmailTypeRefInput {
  @ApiProperty({ format: 'uuid' })
  @Field(() => ID)
  @IsDefined()
  @IsUUID()
  id!: string;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Ignored (read-only)' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  text?: string | null;
}

/** The fields of C23 and C24 besides the address. */
@InputType({ isAbstract: true })
abstract class CompanyEmailFields {
  @ApiPropertyOptional({
    type: CompanyEmailTypeRefInput,
    nullable: true,
    description: 'An entry of /company-settings/email-types; null clears it',
  })
  @Field(() => CompanyEmailTypeRefInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => CompanyEmailTypeRefInput)
  emailType?: CompanyEmailTypeRefInput | null;

  @ApiPropertyOptional({
    type: Boolean,
    nullable: true,
    description:
      'true makes this the favorite address (the previous favorite loses it); false on the ' +
      'favorite hands the status to the first address',
  })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isFavorite?: boolean | null;
}

/** Body of C23 (add an e-mail address). */
@InputType()
export class CreateCompanyEmailInput extends CompanyEmailFields {
  @ApiProperty({ maxLength: EMAIL_MAX, example: 'info@example.com', description: 'Stored trimmed' })
  @Field()
  @Trimmed()
  @IsDefined()
  @IsString()
  @MaxLength(EMAIL_MAX)
  @IsEmail()
  email!: string;
}

/** Body of C24: fields left out stay. */
@InputType()
export class UpdateCompanyEmailInput extends CompanyEmailFields {
  @ApiPropertyOptional({ type: String, maxLength: EMAIL_MAX, example: 'info@example.com' })
  @Field(() => String, { nullable: true })
  @Trimmed()
  // absent: unchanged; null or blank cannot clear a required column
  @ValidateIf((_, value) => value !== undefined)
  @IsNotEmpty()
  @IsString()
  @MaxLength(EMAIL_MAX)
  @IsEmail()
  email?: string | null;
}
