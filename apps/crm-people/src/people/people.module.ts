import { Module } from '@nestjs/common';
import { FilesModule } from '../files/files.module';
import { SettingsModule } from '../settings/settings.module';
import { PeopleBatchCreateService } from './people-batch-create.service';
import { PeopleBatchController } from './people-batch.controller';
import { PeopleBatchResolver } from './people-batch.resolver';
import { PeopleChecks } from './people-checks.service';
import { PeopleDeleteService } from './people-delete.service';
import { PeopleListService } from './people-list.service';
import { PeopleProfileController } from './people-profile.controller';
import { PeopleProfileResolver } from './people-profile.resolver';
import { PeopleQueryController } from './people-query.controller';
import { PeopleQueryResolver } from './people-query.resolver';
import { PeopleReadRepository } from './people-read.repository';
import { PeopleUpdateService } from './people-update.service';
import { PeopleValidateService } from './people-validate.service';
import { PeopleWriteRepository } from './people-write.repository';
import { PeopleController } from './people.controller';
import { PeopleRepository } from './people.repository';
import { PeopleResolver } from './people.resolver';
import { PeopleService } from './people.service';

@Module({
  imports: [SettingsModule, FilesModule],
  // Fastify's router prefers a fixed path (/people/filter, /people/batch, /people/validate) to
  // /people/:id whatever the order controllers are registered in.
  controllers: [
    PeopleQueryController,
    PeopleBatchController,
    PeopleProfileController,
    PeopleController,
  ],
  providers: [
    PeopleRepository,
    PeopleReadRepository,
    PeopleWriteRepository,
    PeopleChecks,
    PeopleService,
    PeopleListService,
    PeopleUpdateService,
    PeopleDeleteService,
    PeopleBatchCreateService,
    PeopleValidateService,
    PeopleResolver,
    PeopleQueryResolver,
    PeopleBatchResolver,
    PeopleProfileResolver,
  ],
  exports: [PeopleService],
})
export class PeopleModule {}
