import { Module } from '@nestjs/common';

/** Relations between people (R1-R9). */
@Module({})
export class RelationsModule {}
