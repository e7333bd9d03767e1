import { Module } from '@nestjs/common';
import { FilesModule } from '../files/files.module';
import { PeopleModule } from '../people/people.module';
import { MergeController } from './merge.controller';
import { MergeRepository } from './merge.repository';
import { MergeResolver } from './merge.resolver';
import { MergeService } from './merge.service';

/** PeopleMerge (P20, P21). */
@Module({
  imports: [PeopleModule, FilesModule],
  controllers: [MergeController],
  providers: [MergeRepository, MergeService, MergeResolver],
})
export class MergeModule {}
