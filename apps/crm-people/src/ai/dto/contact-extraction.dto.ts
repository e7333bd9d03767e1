import { Field, Float, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Output of P24, shaped like the People and BusinessCard inputs so a client can review it and
// send it on to P3 / B2. Types are prefixed "Extracted" to stay apart from the stored resources.

const text = (description?: string) =>
  ApiPropertyOptional({ type: String, nullable: true, description });

@ObjectType()
export class ExtractedPerson {
  @text('As written: Herr, Frau, Mr., Ms., ...')
  @Field(() => String, { nullable: true })
  salutation!: string | null;

  @text('Academic titles before the name (Dr., Prof., Mag.), else degrees after it (MBA)')
  @Field(() => String, { nullable: true })
  title!: string | null;

  @text()
  @Field(() => String, { nullable: true })
  firstname!: string | null;

  @text('With particles: "von der Heide"')
  @Field(() => String, { nullable: true })
  lastname!: string | null;
}

@ObjectType()
export class ExtractedPosition {
  @text()
  @Field(() => String, { nullable: true })
  position!: string | null;

  @text()
  @Field(() => String, { nullable: true })
  department!: string | null;
}

@ObjectType()
export class ExtractedEmail {
  @ApiProperty()
  @Field()
  mail!: string;
}

@ObjectType()
export class ExtractedPhone {
  @ApiProperty({ description: 'E.164', example: '+4989123456' })
  @Field({ description: 'E.164' })
  number!: string;

  @ApiPropertyOptional({ enum: ['mobile', 'landline', 'fax'], nullable: true })
  @Field(() => String, { nullable: true, description: 'mobile, landline or fax when detectable' })
  type!: string | null;
}

@ObjectType()
export class ExtractedAddress {
  @text()
  @Field(() => String, { nullable: true })
  street!: string | null;

  @text()
  @Field(() => String, { nullable: true })
  zip!: string | null;

  @text()
  @Field(() => String, { nullable: true })
  city!: string | null;

  @text('US state and similar, when written')
  @Field(() => String, { nullable: true })
  federalState!: string | null;

  @text('Name in the language of Accept-Language')
  @Field(() => String, { nullable: true })
  country!: string | null;

  @text('ISO 3166-1 alpha-2')
  @Field(() => String, { nullable: true })
  countryCode!: string | null;
}

@ObjectType()
export class ExtractedCard {
  @text('Company name')
  @Field(() => String, { nullable: true })
  business!: string | null;

  @ApiProperty({ type: [ExtractedPosition] })
  @Field(() => [ExtractedPosition])
  businessPositions!: ExtractedPosition[];

  @ApiProperty({ type: [ExtractedEmail] })
  @Field(() => [ExtractedEmail])
  emails!: ExtractedEmail[];

  @ApiProperty({ type: [ExtractedPhone] })
  @Field(() => [ExtractedPhone])
  phones!: ExtractedPhone[];

  @ApiProperty({ type: [ExtractedAddress] })
  @Field(() => [ExtractedAddress])
  addresses!: ExtractedAddress[];
}

const score = () => ApiPropertyOptional({ type: Number, nullable: true, minimum: 0, maximum: 1 });

/** How sure the rules are, 0..1 per field; null where nothing was found. */
@ObjectType()
export class ExtractionConfidence {
  @score() @Field(() => Float, { nullable: true }) salutation!: number | null;
  @score() @Field(() => Float, { nullable: true }) title!: number | null;
  @score() @Field(() => Float, { nullable: true }) firstname!: number | null;
  @score() @Field(() => Float, { nullable: true }) lastname!: number | null;
  @score() @Field(() => Float, { nullable: true }) business!: number | null;
  @score() @Field(() => Float, { nullable: true }) businessPositions!: number | null;
  @score() @Field(() => Float, { nullable: true }) emails!: number | null;
  @score() @Field(() => Float, { nullable: true }) phones!: number | null;
  @score() @Field(() => Float, { nullable: true }) addresses!: number | null;
}

@ObjectType()
export class ContactExtraction {
  @ApiProperty({ type: ExtractedPerson })
  @Field(() => ExtractedPerson)
  person!: ExtractedPerson;

  @ApiProperty({ type: ExtractedCard })
  @Field(() => ExtractedCard)
  card!: ExtractedCard;

  @ApiProperty({ type: ExtractionConfidence })
  @Field(() => ExtractionConfidence)
  confidence!: ExtractionConfidence;
}
