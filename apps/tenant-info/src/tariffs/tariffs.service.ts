import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException } from '@crm/errors';
import type { Language } from '@crm/i18n';
import type { TariffSummary } from '@crm/messaging';
import type { Tariff } from './dto/tariff.dto';
import { TextLookup, toTariff, toTariffSummary } from './tariff.mapper';
import { TariffsRepository } from './tariffs.repository';

@Injectable()
export class TariffsService {
  constructor(
    private readonly repo: TariffsRepository,
    private readonly i18n: I18nService,
  ) {}

  private texts(lang: Language): TextLookup {
    return (key, fallback) => {
      const out = this.i18n.t(key, { lang, defaultValue: '' }) as unknown;
      return typeof out === 'string' && out !== '' && out !== key ? out : fallback;
    };
  }

  async list(): Promise<TariffSummary[]> {
    return (await this.repo.findAll()).map(toTariffSummary);
  }

  async get(id: string, lang: Language): Promise<Tariff> {
    const record = await this.repo.findById(id);
    if (!record) throw AppException.notFound('Tariff', id);
    return toTariff(record, this.texts(lang));
  }
}
