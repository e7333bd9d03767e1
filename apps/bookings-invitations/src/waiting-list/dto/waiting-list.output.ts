import { Field, ID, Int, ObjectType } from '@nestjs/graphql';
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export const ENTRY_STATUSES = [
  'waiting',
  'offered',
  'booked',
  'declined',
  'expired',
  'left',
  'removed',
] as const;

const STATUS_DOC =
  'waiting: in the list (position); offered: seats are held for the entry until ' +
  'offer.expiresAt; booked: a booking took the offer; declined: the offer was released (BK20); ' +
  'expired: the offer was not booked in time and passed on; left: the visitor left; removed: ' +
  'the organiser removed it';

@ObjectType('WaitingListOffer')
export class WaitingListOffer {
  @ApiProperty({ description: 'BK1 `holdToken`: books the offered seats (also BK19, BK20)' })
  @Field()
  holdToken!: string;
  @ApiProperty({ format: 'date-time' }) @Field() expiresAt!: string;
}

/** A waiting entry as the visitor sees it (its token is the key). */
@ObjectType('WaitingListEntry')
export class WaitingListEntry {
  @ApiProperty({ description: 'The visitor’s key to the entry (the offer mail’s link)' })
  @Field()
  token!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) ticketTypeId!: string;
  @ApiProperty() @Field(() => Int) quantity!: number;
  @ApiProperty({ enum: ENTRY_STATUSES, description: STATUS_DOC }) @Field() status!: string;
  @ApiPropertyOptional({
    type: Number,
    nullable: true,
    description: '1-based among the type’s waiting entries; null when not waiting',
  })
  @Field(() => Int, { nullable: true })
  position!: number | null;
  @ApiPropertyOptional({ type: WaitingListOffer, nullable: true, description: 'While offered' })
  @Field(() => WaitingListOffer, { nullable: true })
  offer!: WaitingListOffer | null;
}

/** A waiting entry as the organiser sees it. */
@ObjectType('WaitingListEntryDetails')
export class WaitingListEntryDetails {
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) id!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) eventId!: string;
  @ApiProperty({ format: 'uuid' }) @Field(() => ID) ticketTypeId!: string;
  @ApiProperty() @Field() email!: string;
  @ApiProperty() @Field() firstname!: string;
  @ApiProperty() @Field() lastname!: string;
  @ApiProperty() @Field(() => Int) quantity!: number;
  @ApiProperty() @Field() language!: string;
  @ApiProperty({ enum: ENTRY_STATUSES, description: STATUS_DOC }) @Field() status!: string;
  @ApiPropertyOptional({ type: Number, nullable: true, description: 'Among the waiting ones' })
  @Field(() => Int, { nullable: true })
  position!: number | null;
  @ApiPropertyOptional({ type: String, format: 'date-time', nullable: true })
  @Field(() => String, { nullable: true })
  offerExpiresAt!: string | null;
  @ApiPropertyOptional({ type: String, format: 'uuid', nullable: true })
  @Field(() => ID, { nullable: true })
  bookingId!: string | null;
  @ApiProperty({ format: 'date-time' }) @Field() dateCreated!: string;
}
