import { Module } from '@nestjs/common';
import { SettingsModule } from '../settings/settings.module';
import { PeopleController } from './people.controller';
import { PeopleRepository } from './people.repository';
import { PeopleResolver } from './people.resolver';
import { PeopleService } from './people.service';

@Module({
  imports: [SettingsModule],
  controllers: [PeopleController],
  providers: [PeopleRepository, PeopleService, PeopleResolver],
  exports: [PeopleService],
})
export class PeopleModule {}
