import { Module } from '@nestjs/common';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import { PeopleController } from './people.controller';
import { PeopleRepository } from './people.repository';
import { PeopleResolver } from './people.resolver';
import { PeopleService } from './people.service';

@Module({
  controllers: [PeopleController],
  providers: [PeopleRepository, PeopleService, PeopleResolver, SettingsLookupService],
  exports: [PeopleService],
})
export class PeopleModule {}
