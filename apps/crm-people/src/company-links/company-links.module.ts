import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module';
import { CompanyLinksMessages } from './company-links.messages';
import { CompanyLinksRepository } from './company-links.repository';
import { CompanyLinksService } from './company-links.service';
import { TombstonesRepository } from './tombstones.repository';

/**
 * What crm-companies asks of and tells crm-people: people and manager roles exist (managed-by
 * relations, M2-M5) and companies deleted (cards and touchpoints let go of them).
 */
@Module({
  imports: [SettingsModule],
  controllers: [CompanyLinksMessages],
  providers: [CompanyLinksRepository, CompanyLinksService, TombstonesRepository],
  // card and touchpoint writes check the tombstones of the deleted companies
  exports: [TombstonesRepository],
})
export class CompanyLinksModule {}
