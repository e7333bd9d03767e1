import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Put,
  StreamableFile,
} from '@nestjs/common';
import {
  ApiBody,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { RawResponse } from '@crm/envelope';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import {
  EventPublicationCheckInput,
  EventPublicationInput,
  UpdateEventNoteInput,
} from './dto/event-note.input';
import { EventInput } from './dto/event.input';
import { Event, EventNoteOutput, EventsDeleted, EventValidationResult } from './dto/event.output';
import { EventsIcalService } from './ical/events-ical.service';
import { EventsPublicationService } from './events-publication.service';
import { EventsService } from './events.service';

const NOT_FOUND = ApiResponse({
  status: 404,
  description: 'Not an event of the tenant (unknown, foreign or malformed id); nothing changed',
});

const FIELDS_DOC =
  'title is required (1-200, trimmed). startsAt/endsAt are ISO 8601 instants in UTC with Z, the end after the start. timeZone is an IANA zone (default: the time zone of the event settings). venue { name, street, zip, city, country (ISO 3166-1 alpha-2) } and/or onlineMeeting { platformId (online-meeting-platforms vendor list), url (https) }. capacity >= 1 or null (unlimited). categoryId (event-categories), contributors (at most 100: name, roleId of contributor-roles, personId), contactPerson (templateId: fields left out are copied from the contact person template), orgaTags/portalTags ({ id } or { text }: found in any case, else created), bookingFormFieldSetId, cancellationConditionId, taxRateId (tax-rates vendor list), holdMinutes 1-1440 (minutes a public seat hold keeps its seats; absent or null: 15), waitingListOfferMinutes 1-10080 (minutes a waiting-list offer waits to be booked; absent or null: 1440), paymentDeadlineHours 1-8760 or null (an unpaid booking is cancelled without a fee this many hours after it was made; null: no deadline), paymentReminderHours 1-8759 or null (the booker is reminded this many hours before that deadline: only with paymentDeadlineHours and less than it), maxTicketsPerBuyer 1-1000 or null (at most this many tickets per booker e-mail over all of its bookings of the event; null: no limit), status draft|scheduled|cancelled|completed. The note (E10) and the publication (E11) have their own operations and are refused here, as are unknown fields.';

@ApiTags('Events')
@Controller('events')
export class EventsController {
  constructor(
    private readonly events: EventsService,
    private readonly publication: EventsPublicationService,
    private readonly ical: EventsIcalService,
  ) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'E3 Create an event',
    description: `E3. ${FIELDS_DOC} Fields left out take the defaults of the event settings (eventDefaults). The new event is a draft unless status says otherwise, unpublished, sequence 0; events.events.changed is written in the same transaction.`,
  })
  @ApiEnvelope(Event, 201)
  create(@Ctx() ctx: RequestContext, @Body() body: EventInput): Promise<Event> {
    return this.events.create(ctx, body);
  }

  @Get(':id')
  @ApiOperation({ summary: 'E2 Read an event', description: 'E2. With tags, websites and note.' })
  @ApiEnvelope(Event)
  @NOT_FOUND
  get(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<Event> {
    return this.events.get(ctx, id);
  }

  @Put(':id')
  @ApiOperation({
    summary: 'E4 Update an event',
    description: `E4. PUT replaces: the same fields as E3, a field left out is cleared (no defaults of the event settings; holdMinutes goes back to 15, waitingListOfferMinutes to 1440), except timeZone and status, which stay. ${FIELDS_DOC} sequence grows by one; events.events.changed is written in the same transaction.`,
  })
  @ApiEnvelope(Event)
  @NOT_FOUND
  update(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: EventInput,
  ): Promise<Event> {
    return this.events.update(ctx, id, body);
  }

  @Delete(':id')
  @ApiOperation({
    summary: 'E5 Delete an event',
    description:
      'E5. Deletes the event with its tags, websites and file rows; events.events.deleted is written in the same transaction (bookings-invitations removes its bookings, invitations and tickets).',
  })
  @ApiEnvelope(EventsDeleted)
  @NOT_FOUND
  delete(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<EventsDeleted> {
    return this.events.delete(ctx, id);
  }

  @Get(':id/ical')
  @RawResponse()
  @ApiOperation({
    summary: 'E8 The event as iCalendar',
    description:
      'E8. RFC 5545 (text/calendar): UID `<eventId>@<ICAL_UID_HOST>` (stable), SEQUENCE = sequence, DTSTART/DTEND in the event zone with its VTIMEZONE, SUMMARY, DESCRIPTION, LOCATION (venue, else the meeting url), URL (the event page on its first published website: `<website url>/events/<id>`), ORGANIZER (contact person with e-mail), STATUS (CANCELLED, TENTATIVE for drafts, else CONFIRMED), LAST-MODIFIED. The note is never written. An event without start: a calendar without VEVENT.',
  })
  @ApiProduces('text/calendar')
  @ApiOkResponse({
    description: 'iCalendar (RFC 5545)',
    content: { 'text/calendar': { schema: { type: 'string' } } },
  })
  @NOT_FOUND
  async icalendar(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<StreamableFile> {
    const file = await this.ical.event(ctx, id);
    return new StreamableFile(Buffer.from(file.text, 'utf8'), {
      type: 'text/calendar; charset=utf-8',
      disposition: `inline; filename="event.ics"`,
    });
  }

  @Post(':id/duplicate')
  @HttpCode(201)
  @ApiOperation({
    summary: 'E9 Duplicate an event',
    description:
      'E9. A new event with a new id and the same title (unchanged, no " (copy)"), fields, settings, note and tags; unpublished, on no website, sequence 0; a cancelled or completed source gives a draft. events.events.duplicated is written in the same transaction: files and images, and ticket types in bookings-invitations, are copied from it.',
  })
  @ApiEnvelope(Event, 201)
  @NOT_FOUND
  duplicate(@Ctx() ctx: RequestContext, @Param('id') id: string): Promise<Event> {
    return this.events.duplicate(ctx, id);
  }

  @Put(':id/notes')
  @ApiOperation({
    summary: 'E10 Update the note of an event',
    description:
      'E10. Body { note }: at most 10000 characters; null clears it. Internal: never public, never in iCalendar.',
  })
  @ApiEnvelope(EventNoteOutput)
  @NOT_FOUND
  updateNote(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: UpdateEventNoteInput,
  ): Promise<EventNoteOutput> {
    return this.events.updateNote(ctx, id, body.note);
  }

  @Put(':id/publication')
  @ApiOperation({
    summary: 'E11 Update the publication of an event',
    description:
      "E11. Body { published, websiteIds? }. Publishing runs every check of E12 and answers 409 with the same errors when one fails; it writes the websites (given ones replace the stored ones; each must be a website of the tenant), sets publishedAt, makes a draft `scheduled` (it takes place: calendars show it CONFIRMED) and writes events.events.published. Unpublishing keeps the websites unless websiteIds are given, and the status. Both grow the sequence and write events.events.changed. Publishing asks bookings-invitations for the event's ticket types: when it does not answer, 503 naming it (nothing changed).",
  })
  @ApiEnvelope(Event)
  @NOT_FOUND
  @ApiResponse({ status: 409, description: 'Not publishable: errors lists every missing piece' })
  @ApiResponse({
    status: 503,
    description: 'bookings-invitations did not answer (publishing only)',
  })
  updatePublication(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: EventPublicationInput,
  ): Promise<Event> {
    return this.publication.update(ctx, id, body);
  }

  @Post(':id/publication/validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'E12 Validate the publication of an event',
    description:
      "E12. What is missing to publish, every piece by field: startsAt/endsAt (requiredToPublish), a start in the past (startInPast), no venue and no online meeting (venue), no website (websiteIds: the given ones, else the stored ones), a website that is not the tenant's (websiteIds[i], unknownWebsite), status cancelled, no active ticket type (ticketTypes, noActiveTicketType; asked of bookings-invitations: when it does not answer, ticketTypes, ticketTypesUnavailable). Optional body { websiteIds }.",
  })
  @ApiBody({ type: EventPublicationCheckInput, required: false })
  @ApiEnvelope(EventValidationResult)
  @NOT_FOUND
  validatePublication(
    @Ctx() ctx: RequestContext,
    @Param('id') id: string,
    @Body() body: EventPublicationCheckInput,
  ): Promise<EventValidationResult> {
    return this.publication.validate(ctx, id, body?.websiteIds);
  }
}
