import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';
import { Subjects, TariffSummary } from '@crm/messaging';
import { TariffsService } from './tariffs.service';

/** NATS commands about tariffs (operators through the gateway's admin API). */
@Controller()
export class TariffsMessages {
  constructor(private readonly tariffs: TariffsService) {}

  @MessagePattern(Subjects.tenantInfo.listTariffs)
  list(): Promise<TariffSummary[]> {
    return this.tariffs.list();
  }
}
