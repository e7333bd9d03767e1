import { Directive, Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { BusinessCard, CardPhone } from '../../people/dto/person.dto';

@ObjectType()
export class BusinessCardsPage {
  @Field(() => [BusinessCard]) items!: BusinessCard[];
  @Field(() => Int) totalResults!: number;
}

@ObjectType()
export class BusinessCardsDeleted {
  @ApiProperty({ type: [String], description: 'The cards removed' })
  @Field(() => [ID])
  ids!: string[];

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'The card that became the favorite because the favorite was removed',
  })
  @Field(() => ID, { nullable: true })
  newFavoriteId!: string | null;
}

@ObjectType()
export class CardValidationError {
  @ApiProperty({ example: 'phones[0].number' }) @Field() field!: string;
  @ApiProperty({ example: 'phoneNumber' }) @Field() rule!: string;
  @ApiProperty() @Field() message!: string;
}

@ObjectType()
export class CardValidationCalculated {
  @ApiProperty({ type: [CardPhone], description: 'The phones as they would be stored (E.164)' })
  @Field(() => [CardPhone])
  phones!: CardPhone[];
}

@ObjectType()
export class BusinessCardValidation {
  @ApiProperty() @Field() valid!: boolean;
  @ApiProperty({ type: [CardValidationError] })
  @Field(() => [CardValidationError])
  errors!: CardValidationError[];
  @ApiPropertyOptional({ type: CardValidationCalculated, nullable: true })
  @Field(() => CardValidationCalculated, { nullable: true })
  calculated!: CardValidationCalculated | null;
}

/**
 * A company of crm-companies, as a federation reference: this subgraph knows only its id;
 * the crm-companies subgraph resolves the rest.
 */
@ObjectType('Company')
@Directive('@key(fields: "id", resolvable: false)')
export class CompanyRef {
  @Field(() => ID) id!: string;
}

@ObjectType()
export class CardAddressDeleted {
  @ApiProperty({ description: 'The address removed' }) @Field(() => ID) id!: string;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'The address that became the favorite (the favorite was removed, one remains)',
  })
  @Field(() => ID, { nullable: true })
  newFavoriteId!: string | null;
}
