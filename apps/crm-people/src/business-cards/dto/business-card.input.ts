import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsDefined,
  IsISO8601,
  IsOptional,
  IsString,
  IsUUID,
  MaxLength,
  ValidateIf,
  ValidateNested,
} from 'class-validator';
import { IdsInput } from '@crm/paging';
import { CardAddressItemInput, CardEntryRefInput } from './card-address.input';
import {
  BusinessPositionInput,
  CARD_TEXT_MAX,
  CardEmailInput,
  CardPhoneInput,
} from './card-lists.input';

/** Phones, e-mails, positions and addresses of one card: a generous bound, not a business rule. */
export const CARD_LIST_MAX = 50;
export const BATCH_MAX = 1000;

const optionalText = (max = CARD_TEXT_MAX) =>
  ApiPropertyOptional({ type: String, nullable: true, maxLength: max });
const optionalFlag = (description?: string) =>
  ApiPropertyOptional({ type: Boolean, nullable: true, description });
const optionalDate = (description?: string) =>
  ApiPropertyOptional({ type: String, format: 'date-time', nullable: true, description });

function list<T>(type: () => new () => T, description?: string): PropertyDecorator {
  return (target, key) => {
    ApiPropertyOptional({ type: [type()], nullable: true, description })(target, key);
    Field(() => [type()], { nullable: true })(target, key);
    IsOptional()(target, key);
    IsArray()(target, key);
    ArrayMaxSize(CARD_LIST_MAX)(target, key);
    ValidateNested({ each: true })(target, key);
    Type(type)(target, key);
  };
}

/**
 * Body of B2 (create), B5 (update) and B10 (validate). On update an absent field stays as it is
 * and null clears it (a flag set to null returns to its default).
 */
@InputType('BusinessCardInput')
export class BusinessCardInput {
  @optionalFlag('A private card cannot be connected to a company')
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isPrivate?: boolean | null;

  @optionalText(50)
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(50)
  alternativeSalutation?: string | null;

  @optionalText()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(CARD_TEXT_MAX)
  alternativeTitle?: string | null;

  @optionalText()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(CARD_TEXT_MAX)
  alternativeFirstname?: string | null;

  @optionalText()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(CARD_TEXT_MAX)
  alternativeLastname?: string | null;

  @optionalFlag('Show the alternative name instead of the person name (vCard too)')
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  useAlternativeName?: boolean | null;

  @ApiPropertyOptional({
    type: String,
    format: 'uuid',
    nullable: true,
    description: 'A company of crm-companies; checked there (404 unknown, 503 not answering)',
  })
  @Field(() => ID, { nullable: true })
  @IsOptional()
  @IsUUID()
  companyId?: string | null;

  @optionalText()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsString()
  @MaxLength(CARD_TEXT_MAX)
  business?: string | null;

  @ApiPropertyOptional({
    type: CardEntryRefInput,
    nullable: true,
    description: 'An entry of the list company-relation-types, by id',
  })
  @Field(() => CardEntryRefInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardEntryRefInput)
  companyRelationType?: CardEntryRefInput | null;

  @optionalDate()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  companyRelationSince?: string | null;

  @optionalDate('Not before companyRelationSince')
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  companyRelationUntil?: string | null;

  @optionalDate()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  validFrom?: string | null;

  @optionalDate('Not before validFrom')
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  validTo?: string | null;

  @list(() => CardPhoneInput)
  phones?: CardPhoneInput[] | null;

  @list(() => CardEmailInput)
  emails?: CardEmailInput[] | null;

  @list(() => BusinessPositionInput)
  businessPositions?: BusinessPositionInput[] | null;

  @list(
    () => CardAddressItemInput,
    'On update the list replaces the addresses: items with an id keep it, others are new',
  )
  addresses?: CardAddressItemInput[] | null;

  @optionalFlag('true makes this the favorite card of the person; the previous one loses it')
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isFavorite?: boolean | null;

  @optionalFlag('Default true')
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  isActive?: boolean | null;

  @optionalFlag('true: same as isFavorite true (kept in step with isFavorite)')
  @Field(() => Boolean, { nullable: true })
  @IsOptional()
  @IsBoolean()
  markAsFavorite?: boolean | null;
}

/** Body of B8: connect (companyId) or disconnect (companyId null) a card and a company. */
@InputType('ConnectBusinessCardCompanyInput')
export class ConnectCompanyInput {
  @ApiProperty({ type: String, format: 'uuid', nullable: true, description: 'null disconnects' })
  @Field(() => ID, { nullable: true })
  @ValidateIf((o: ConnectCompanyInput) => o.companyId !== null)
  @IsDefined()
  @IsUUID()
  companyId!: string | null;

  @ApiPropertyOptional({ type: CardEntryRefInput, nullable: true })
  @Field(() => CardEntryRefInput, { nullable: true })
  @IsOptional()
  @ValidateNested()
  @Type(() => CardEntryRefInput)
  companyRelationType?: CardEntryRefInput | null;

  @optionalDate()
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  companyRelationSince?: string | null;

  @optionalDate('Not before companyRelationSince')
  @Field(() => String, { nullable: true })
  @IsOptional()
  @IsISO8601({ strict: true })
  companyRelationUntil?: string | null;
}

/** Body of B7 (and the ids argument of deleteBusinessCards). */
@ArgsType()
export class DeleteBusinessCardsInput extends IdsInput({ required: true, each: 'string' }) {}
