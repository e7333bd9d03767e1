import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import { AppException } from '@crm/errors';
import type { Language } from '@crm/i18n';
import { PageQuery, parseSort, skipTake } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { ONLINE_MEETING_PLATFORMS } from './online-meeting-platforms';
import { periodAt, TAX_RATES, type TaxRate } from '@crm/tax-rates';
import type { OnlineMeetingPlatformView, TaxRateView } from './vendor-lists.output';

const VENDOR_SORT_FIELDS = ['id', 'name'] as const;

/**
 * ES4 of the vendor lists (shipped with the service, read-only): translated by Accept-Language,
 * `q` searches the name (and the id), paged. A write to them is a 409 (readOnly).
 */
@Injectable()
export class VendorListsService {
  constructor(private readonly i18n: I18nService) {}

  private t(key: string, lang: Language, args: Record<string, string> = {}): string {
    return this.i18n.t(key, { lang, args }) as string;
  }

  meetingPlatforms(lang: Language): OnlineMeetingPlatformView[] {
    return ONLINE_MEETING_PLATFORMS.map((p) => ({
      id: p.id,
      name: p.name ?? this.t(`settings.vendorLists.onlineMeetingPlatforms.${p.id}`, lang),
      urlHint: p.urlHint,
    }));
  }

  taxRateView(r: TaxRate, lang: Language, today: string): TaxRateView {
    const country = new Intl.DisplayNames([lang], { type: 'region' }).of(r.country) ?? r.country;
    return {
      id: r.id,
      name: this.t('settings.vendorLists.taxRates.name', lang, {
        country,
        kind: this.t(`settings.vendorLists.taxRates.kinds.${r.kind}`, lang),
      }),
      country: r.country,
      kind: r.kind,
      rate: periodAt(r, today)?.rate ?? null,
      periods: r.periods.map((x) => ({ ...x })),
    };
  }

  taxRates(lang: Language): TaxRateView[] {
    const today = new Date().toISOString().slice(0, 10);
    return TAX_RATES.map((r) => this.taxRateView(r, lang, today));
  }

  private page<T extends { id: string; name: string }>(
    items: T[],
    ctx: RequestContext,
    query: PageQuery,
  ): Paged<T> {
    const q = query.q?.trim().toLocaleLowerCase(ctx.language);
    const found = q
      ? items.filter((i) => i.name.toLocaleLowerCase(ctx.language).includes(q) || i.id.includes(q))
      : items;
    // the shipped order unless `sort` says otherwise: id or name (translated), `-` descending
    const sort = parseSort(query.sort, VENDOR_SORT_FIELDS, []);
    const collator = new Intl.Collator(ctx.language, { sensitivity: 'base' });
    const sorted = sort.length
      ? [...found].sort((a, b) => {
          for (const s of sort) {
            const c = collator.compare(a[s.field], b[s.field]);
            if (c) return s.direction === 'desc' ? -c : c;
          }
          return 0;
        })
      : found;
    const { skip, take } = skipTake(query);
    return paged(sorted.slice(skip, skip + take), sorted.length);
  }

  meetingPlatformPage(ctx: RequestContext, query: PageQuery): Paged<OnlineMeetingPlatformView> {
    return this.page(this.meetingPlatforms(ctx.language), ctx, query);
  }

  taxRatePage(ctx: RequestContext, query: PageQuery): Paged<TaxRateView> {
    return this.page(this.taxRates(ctx.language), ctx, query);
  }

  /** The 409 of a write to a vendor list. */
  readOnly(ctx: RequestContext, slug: string): AppException {
    return AppException.conflictOn('list', 'readOnly', 'settings.vendorLists.readOnly', {
      list: this.t(`settings.vendorLists.names.${slug}`, ctx.language),
    });
  }
}
