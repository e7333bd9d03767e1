import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Output shapes of the people settings lists (S1-S5) and the relation types (R9), shared by
// REST (OpenAPI) and GraphQL.

@ObjectType('PeopleSettingsEntry')
export class SettingsEntry {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;

  @ApiProperty({ description: 'System entries are translated by Accept-Language' })
  @Field()
  text!: string;

  @ApiPropertyOptional({ type: String, nullable: true, example: '#4CAF50' })
  @Field(() => String, { nullable: true })
  color!: string | null;

  @ApiPropertyOptional({ type: String, nullable: true, description: 'Personality tags only' })
  @Field(() => String, { nullable: true })
  category!: string | null;

  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: 'Order among the tenant entries (system entries come first: null)',
  })
  @Field(() => Int, { nullable: true })
  position!: number | null;

  @ApiProperty({ description: 'Given by the system: read-only, same id for every tenant' })
  @Field()
  isSystem!: boolean;
}

@ObjectType('PeopleSettingsEntryPage')
export class SettingsEntryPage {
  @Field(() => [SettingsEntry]) items!: SettingsEntry[];
  @Field(() => Int) totalResults!: number;
}

@ObjectType('PersonRelationTypeDefinition')
export class RelationTypeDefinition {
  @ApiProperty({ example: 'parent' }) @Field() identifier!: string;

  @ApiProperty({ enum: ['business', 'private'] }) @Field() category!: string;

  @ApiProperty({
    example: 'child',
    description: 'The type recorded on the other person (equal to identifier when symmetric)',
  })
  @Field()
  inverseIdentifier!: string;

  @ApiProperty({ example: 'Parent', description: 'Translated by Accept-Language' })
  @Field()
  name!: string;

  @ApiProperty({ example: 'Child' }) @Field() inverseName!: string;

  @ApiProperty() @Field() symmetric!: boolean;
}
