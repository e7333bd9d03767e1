import { Module } from '@nestjs/common';

/** PeopleMerge (P20, P21). */
@Module({})
export class MergeModule {}
