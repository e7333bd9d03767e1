import { Module } from '@nestjs/common';
import { TariffsMessages } from './tariffs.messages';
import { TariffsRepository } from './tariffs.repository';
import { TariffsService } from './tariffs.service';

@Module({
  controllers: [TariffsMessages],
  providers: [TariffsRepository, TariffsService],
  exports: [TariffsRepository, TariffsService],
})
export class TariffsModule {}
