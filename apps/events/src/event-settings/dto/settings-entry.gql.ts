import { ArgsType, Field, InputType, Int } from '@nestjs/graphql';
import { IsNotEmpty, IsString } from 'class-validator';
import { PageQuery } from '@crm/paging';
import { BookingFormField, CancellationTier } from './entry-data.input';

// GraphQL shapes of ES4/ES5: the entry's data typed (bookingFormFields, cancellationTiers)
// instead of REST's `data` object; the resolver turns them into `data` and the same checks run.

/** GraphQL arguments of eventSettingsList: the list and the usual paging. */
@ArgsType()
export class EventSettingsListArgs extends PageQuery {
  @Field({
    description:
      'The list, as in the REST path: booking-form-field-sets, cancellation-conditions, ' +
      'contributor-roles, event-categories, orga-tags, portal-tags',
  })
  @IsString()
  @IsNotEmpty()
  list!: string;
}

/** An entry to create (ES5); `text` is checked by the service (so an array is checked by index). */
@InputType()
export class EventSettingsEntryInput {
  @Field(() => String, { nullable: true }) text?: string | null;
  @Field(() => String, { nullable: true }) color?: string | null;
  @Field(() => Int, { nullable: true }) position?: number | null;
  @Field(() => [BookingFormField], {
    nullable: true,
    description: 'booking-form-field-sets only (required there)',
  })
  bookingFormFields?: BookingFormField[] | null;
  @Field(() => [CancellationTier], {
    nullable: true,
    description: 'cancellation-conditions only (required there)',
  })
  cancellationTiers?: CancellationTier[] | null;
}

/** REST's body of an entry from the GraphQL input: absent or null parts left out. */
export function entryBody(input: Record<string, unknown>): Record<string, unknown> {
  const { bookingFormFields, cancellationTiers, ...rest } = input;
  const body: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(rest))
    if (v !== undefined && !(v === null && (k === 'text' || k === 'position'))) body[k] = v;
  if (bookingFormFields != null) body.data = { fields: bookingFormFields };
  if (cancellationTiers != null) body.data = { ...(body.data as object), tiers: cancellationTiers };
  return body;
}
