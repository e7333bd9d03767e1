import { Module } from '@nestjs/common';
import { CompanyLinksModule } from '../company-links/company-links.module';
import { PeopleModule } from '../people/people.module';
import { SettingsModule } from '../settings/settings.module';
import { TouchpointChangesService } from './touchpoint-changes.service';
import { TouchpointPeopleService } from './touchpoint-people.service';
import { TouchpointRules } from './touchpoint.rules';
import { TouchpointsController } from './touchpoints.controller';
import { TouchpointsMessages } from './touchpoints.messages';
import { TouchpointsRepository } from './touchpoints.repository';
import { TouchpointsResolver } from './touchpoints.resolver';
import { TouchpointsService } from './touchpoints.service';
import { VisitorActivitiesEvents } from './visitor-activities.events';

/**
 * Touchpoints (T1-T14), the NATS command crm-people.touchpoints.move, and the touchpoints of
 * bookings-invitations' visitor activities.
 */
@Module({
  imports: [SettingsModule, PeopleModule, CompanyLinksModule],
  controllers: [TouchpointsController, TouchpointsMessages],
  providers: [
    TouchpointsRepository,
    TouchpointRules,
    TouchpointsService,
    TouchpointChangesService,
    TouchpointPeopleService,
    TouchpointsResolver,
    VisitorActivitiesEvents,
  ],
  // merge (P20) moves a source's touchpoints inside its own transaction
  exports: [TouchpointPeopleService],
})
export class TouchpointsModule {}
