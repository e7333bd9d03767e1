import { Field, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsEmail, IsNotEmpty, IsOptional, IsString, MaxLength } from 'class-validator';

const opt = (max: number, example?: string) =>
  ApiPropertyOptional({ type: String, nullable: true, maxLength: max, example });

/**
 * ES5 create and update (PUT replaces: absent optional fields become null). The template is
 * copied into an event's contact person when an event uses it; changing or deleting the template
 * later does not change events.
 */
@InputType()
export class ContactPersonTemplateInput {
  @ApiProperty({ maxLength: 200, example: 'Front desk', description: "The template's own name" })
  @Field()
  @IsString()
  @IsNotEmpty()
  @MaxLength(200)
  name!: string;

  @opt(50, 'Ms')
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  salutation?: string | null;

  @opt(100, 'Dr.')
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(100)
  title?: string | null;

  @opt(200)
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  firstname?: string | null;

  @opt(200)
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  lastname?: string | null;

  @opt(200)
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(200)
  position?: string | null;

  @opt(320)
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsEmail()
  @MaxLength(320)
  email?: string | null;

  @opt(50)
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  phone?: string | null;
}
