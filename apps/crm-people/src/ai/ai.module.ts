import { Module } from '@nestjs/common';
import { AiController } from './ai.controller';
import { AiResolver } from './ai.resolver';
import { AiService } from './ai.service';

/** Contact extraction from free text (P24). */
@Module({
  controllers: [AiController],
  providers: [AiService, AiResolver],
})
export class AiModule {}
