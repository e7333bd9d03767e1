import { Field, ID, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

// Answers of the company operations other than the Company resource itself.

/** C6, C7: the companies removed. */
@ObjectType()
export class CompaniesDeleted {
  @ApiProperty({ type: [String], format: 'uuid' })
  @Field(() => [ID])
  deletedIds!: string[];
}

@ObjectType()
export class CompanyValidationProblem {
  @ApiProperty() @Field() field!: string;
  @ApiProperty() @Field() rule!: string;
  @ApiProperty() @Field() message!: string;
}

@ObjectType()
export class CompanyCalculated {
  @ApiPropertyOptional({ type: String, nullable: true, description: 'What C4 would store' })
  @Field(() => String, { nullable: true })
  websiteDomain!: string | null;
}

/** C14: the outcome of every create check, without writing. */
@ObjectType()
export class CompanyValidationResult {
  @ApiProperty() @Field() valid!: boolean;
  @ApiProperty({ type: [CompanyValidationProblem] })
  @Field(() => [CompanyValidationProblem])
  errors!: CompanyValidationProblem[];
  @ApiProperty({ type: CompanyCalculated })
  @Field(() => CompanyCalculated)
  calculated!: CompanyCalculated;
}
