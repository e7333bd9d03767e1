import { Field, ID, InputType } from '@nestjs/graphql';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDateString,
  IsISO8601,
  IsNotEmpty,
  IsOptional,
  IsString,
  IsUrl,
  IsUUID,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';

/** Names, numbers and tag texts: the seed's limit. */
export const NAME_MAX = 200;

@InputType('BirthdayInput')
export class BirthdayInput {
  @ApiPropertyOptional({ type: String, format: 'date', nullable: true, example: '1985-04-12' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsDateString({ strict: true })
  birthday?: string | null;

  @ApiPropertyOptional({ type: Boolean, nullable: true })
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  considerBirthYear?: boolean | null;
}

@InputType('ImportantDateInput')
export class ImportantDateInput {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NAME_MAX })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  text?: string | null;

  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  date?: string | null;
}

@InputType('SocialMediaInput')
export class SocialMediaInput {
  @ApiPropertyOptional({ type: String, nullable: true, example: 'linkedin', maxLength: 50 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  type?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, example: 'https://www.linkedin.com/in/x' })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsUrl({ require_protocol: true })
  @MaxLength(2000)
  link?: string | null;
}

/** A tag of a settings list: by id, or by text (an unknown text creates the entry). */
@InputType('EmbeddedTagInput')
export class EmbeddedTagInput {
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  id?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NAME_MAX })
  @Field(() => String, { nullable: true })
  @ValidateIf((o: EmbeddedTagInput) => !o.id)
  @IsString()
  @IsNotEmpty()
  @MaxLength(NAME_MAX)
  text?: string | null;
}

@InputType('EmbeddedPersonalityInput')
export class EmbeddedPersonalityInput extends EmbeddedTagInput {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NAME_MAX })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  category?: string | null;
}

@InputType('LifecycleInput')
export class LifecycleInput {
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  lifecycleId?: string | null;
}

/** Body of P3 (create) and P5 (update): every field optional and nullable, as the seed says. */
@InputType('CreatePersonInput')
export class CreatePersonInput {
  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 50 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  salutation?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NAME_MAX })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  title?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NAME_MAX })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  firstname?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NAME_MAX })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  lastname?: string | null;

  @ApiPropertyOptional({ type: BirthdayInput, nullable: true })
  @Field(() => BirthdayInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => BirthdayInput)
  birthday?: BirthdayInput | null;

  @ApiPropertyOptional({ type: [ImportantDateInput], nullable: true })
  @Field(() => [ImportantDateInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(100)
  @ValidateNested({ each: true })
  @Type(() => ImportantDateInput)
  importantDates?: ImportantDateInput[] | null;

  @ApiPropertyOptional({ type: [SocialMediaInput], nullable: true })
  @Field(() => [SocialMediaInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(50)
  @ValidateNested({ each: true })
  @Type(() => SocialMediaInput)
  socialMedias?: SocialMediaInput[] | null;

  @ApiPropertyOptional({ type: [EmbeddedTagInput], nullable: true })
  @Field(() => [EmbeddedTagInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => EmbeddedTagInput)
  orgaTags?: EmbeddedTagInput[] | null;

  @ApiPropertyOptional({ type: [EmbeddedPersonalityInput], nullable: true })
  @Field(() => [EmbeddedPersonalityInput], { nullable: true })
  @IsOptional()
  @IsArray()
  @ArrayMaxSize(200)
  @ValidateNested({ each: true })
  @Type(() => EmbeddedPersonalityInput)
  personalities?: EmbeddedPersonalityInput[] | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: NAME_MAX })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(NAME_MAX)
  customerNumber?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  employeeStatus?: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, maxLength: 100 })
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  employeeNumber?: string | null;

  @ApiPropertyOptional({ type: LifecycleInput, nullable: true })
  @Field(() => LifecycleInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => LifecycleInput)
  lifecycle?: LifecycleInput | null;
}
