import { ArgsType, Field } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { IsDefined, IsNotEmpty, IsString, MaxLength } from 'class-validator';

export const EXTRACTION_TEXT_MAX = 20000;

/** Body of P24 and the arguments of extractContact: the same class, the same rules. */
@ArgsType()
export class ContactExtractionInput {
  @ApiProperty({
    maxLength: EXTRACTION_TEXT_MAX,
    description: 'Free text such as an e-mail signature or a whole e-mail',
    example: 'Mit freundlichen Grüßen\nDr. Anna Schmidt\nLeiterin Vertrieb\nMuster GmbH',
  })
  @Field({ description: `At most ${EXTRACTION_TEXT_MAX} characters` })
  @IsDefined()
  @IsString()
  @IsNotEmpty()
  @MaxLength(EXTRACTION_TEXT_MAX)
  text!: string;
}
