import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { Person } from '../../people/dto/person.dto';

/** What a merge moves, adds or drops, per kind. */
@ObjectType('PeopleMergeChanges')
export class MergeChanges {
  @ApiProperty({ description: 'Business cards moved to the target' })
  @Field(() => Int)
  cards!: number;

  @ApiProperty({
    description: 'Relation entries re-pointed to the target (its own relation list)',
  })
  @Field(() => Int)
  relations!: number;

  @ApiProperty({ description: 'Relation entries dropped because the target already had them' })
  @Field(() => Int)
  relationDuplicatesDropped!: number;

  @ApiProperty({ description: 'Relation entries between the merged people, dropped' })
  @Field(() => Int)
  selfRelationsDropped!: number;

  @ApiProperty({ description: 'Touchpoint participations moved to the target' })
  @Field(() => Int)
  touchpoints!: number;

  @ApiProperty({ description: 'Participations dropped: the target already takes part' })
  @Field(() => Int)
  touchpointDuplicatesDropped!: number;

  @ApiProperty({ description: 'Documents moved' })
  @Field(() => Int)
  documents!: number;

  @ApiProperty({ description: 'Orga tags added to the target' })
  @Field(() => Int)
  orgaTags!: number;

  @ApiProperty({ description: 'Personality tags added to the target' })
  @Field(() => Int)
  personalities!: number;

  @ApiProperty({ description: 'Lifecycle history entries moved (exact repeats dropped)' })
  @Field(() => Int)
  lifecycleHistories!: number;

  @ApiProperty({ description: 'Important dates added' })
  @Field(() => Int)
  importantDates!: number;

  @ApiProperty({ description: 'Social media entries added' })
  @Field(() => Int)
  socialMedias!: number;

  @ApiProperty({ description: "Sources' notes appended to the target's note" })
  @Field(() => Int)
  notes!: number;
}

@ObjectType('PeopleMergePreview')
export class MergePreview {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) targetId!: string;
  @ApiProperty({ type: [String], description: 'The people that would be deleted' })
  @Field(() => [ID])
  sourceIds!: string[];
  @ApiProperty({ type: MergeChanges }) @Field(() => MergeChanges) changes!: MergeChanges;
  @ApiProperty({
    type: [String],
    description: "Empty fields of the target that take a source's value",
    example: ['title', 'birthday'],
  })
  @Field(() => [String])
  filledFields!: string[];
  @ApiProperty({ description: 'Length of the joined note' }) @Field(() => Int) noteLength!: number;
  @ApiProperty({
    description: 'The joined note exceeds 10000 characters: the merge would be refused (409)',
  })
  @Field()
  noteTooLong!: boolean;
  @ApiProperty({ type: Person, description: 'The target as it would read after the merge' })
  @Field(() => Person)
  person!: Person;
}

@ObjectType('PeopleMergeResult')
export class MergeResult {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) targetId!: string;
  @ApiProperty({ type: [String], description: 'The people merged in and deleted' })
  @Field(() => [ID])
  deletedIds!: string[];
  @ApiProperty({ type: MergeChanges }) @Field(() => MergeChanges) changes!: MergeChanges;
  @ApiProperty({ type: [String] }) @Field(() => [String]) filledFields!: string[];
  @ApiProperty({ type: Person, description: 'The merged person (as P4 reads it)' })
  @Field(() => Person)
  person!: Person;
}
