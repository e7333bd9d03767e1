import { Module } from '@nestjs/common';
import { EventCopiesEvents } from './event-copies.events';
import { EventCopiesRepository } from './event-copies.repository';
import { EventLookup } from './event-lookup.service';

/** This service's copy of the events service's events (ARCHITECTURE: a booking never waits on events). */
@Module({
  providers: [EventCopiesRepository, EventCopiesEvents, EventLookup],
  exports: [EventCopiesRepository, EventLookup],
})
export class EventCopiesModule {}
