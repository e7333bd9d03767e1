import { Module } from '@nestjs/common';

/** Contact extraction from free text (P24). */
@Module({})
export class AiModule {}
