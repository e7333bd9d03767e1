import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { RelationType } from '../../people/dto/person.dto';

// Output of R1-R8. Keeps the seed's relation shape `{ id, type: { typeIdentifier, isFavorite } }`
// (also used inside Person.relations) and adds what a client shows next to it.

@ObjectType('PersonRelationDetail')
export class RelationView {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;

  @ApiProperty({ format: 'uuid', description: 'The related person' })
  @Field(() => ID)
  personId!: string;

  @ApiProperty({ type: RelationType }) @Field(() => RelationType) type!: RelationType;

  @ApiPropertyOptional({ enum: ['business', 'private'], nullable: true })
  @Field(() => String, { nullable: true })
  category!: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: 'Translated name of the type',
  })
  @Field(() => String, { nullable: true })
  typeName!: string | null;

  @ApiPropertyOptional({
    type: String,
    nullable: true,
    description: "The related person's name",
  })
  @Field(() => String, { nullable: true })
  name!: string | null;
}

@ObjectType('PersonRelationPage')
export class RelationPage {
  @Field(() => [RelationView]) items!: RelationView[];
  @Field(() => Int) totalResults!: number;
}

@ObjectType('PersonRelationValidationError')
export class RelationValidationError {
  @ApiProperty() @Field() field!: string;
  @ApiProperty() @Field() rule!: string;
  @ApiProperty() @Field() message!: string;
}

@ObjectType('PersonRelationValidation')
export class RelationValidation {
  @ApiProperty() @Field() valid!: boolean;
  @ApiProperty({ type: [RelationValidationError] })
  @Field(() => [RelationValidationError])
  errors!: RelationValidationError[];
}
