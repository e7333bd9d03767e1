import { Module } from '@nestjs/common';
import { RelationsChangeService } from './relations-change.service';
import { RelationsController } from './relations.controller';
import { RelationsRepository } from './relations.repository';
import { RelationsResolver } from './relations.resolver';
import { RelationsService } from './relations.service';

/** Relations between people (R1-R8; the relation types, R9, are a settings list). */
@Module({
  controllers: [RelationsController],
  providers: [RelationsRepository, RelationsService, RelationsChangeService, RelationsResolver],
})
export class RelationsModule {}
