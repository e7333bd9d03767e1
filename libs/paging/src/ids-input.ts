import { applyDecorators } from '@nestjs/common';
import { ArgsType, Field, ID, InputType } from '@nestjs/graphql';
import { ApiProperty } from '@nestjs/swagger';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsDefined, IsString, IsUUID } from 'class-validator';
import { BATCH_MAX } from '@crm/errors';

/**
 * What the validation pipe checks in a batch body beyond "a list of 1 to BATCH_MAX".
 * - `required`: a missing `ids` is refused as `isDefined` (otherwise by the first list rule).
 * - `each`: `uuid` refuses a malformed id as `ids`/`isUuid`; `string` lets any text through, so
 *   the service can name each malformed id by its index (`ids[3]`/`isUuid`); `any` leaves every
 *   item to the service.
 */
export interface IdsInputRules {
  required: boolean;
  each: 'uuid' | 'string' | 'any';
}

const EACH = {
  uuid: [IsUUID('all', { each: true })],
  string: [IsString({ each: true })],
  any: [],
} satisfies Record<IdsInputRules['each'], PropertyDecorator[]>;

/**
 * The base class of every batch-delete body `{ ids: [...] }` (API.md: 1 to 1000 UUIDs): REST
 * body, GraphQL input type or GraphQL args alike, `class DeleteThingsInput extends IdsInput({...}) {}`.
 *
 * A function rather than one class because the bodies differ in the rules above, and
 * class-validator cannot add a rule in a subclass: a rule declared on `ids` there replaces every
 * inherited one of its kind (all but IsDefined are one kind). The GraphQL field and the OpenAPI
 * property are the same for all.
 */
export function IdsInput(rules: IdsInputRules) {
  // ArgsType too: a GraphQL args class inherits fields only from args classes.
  @InputType({ isAbstract: true })
  @ArgsType()
  abstract class IdsInputBase {
    @ApiProperty({ type: [String], format: 'uuid', minItems: 1, maxItems: BATCH_MAX })
    @Field(() => [ID])
    @applyDecorators(
      ...(rules.required ? [IsDefined()] : []),
      IsArray(),
      ArrayMinSize(1),
      ArrayMaxSize(BATCH_MAX),
      ...EACH[rules.each],
    )
    ids!: string[];
  }
  return IdsInputBase;
}
