import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, FieldProblem } from '@crm/errors';
import type { Language } from '@crm/i18n';
import { CompanyExistsReply, CompanyExistsRequest, MessageBus, Subjects } from '@crm/messaging';
import type { RequestContext } from '@crm/request-context';
import type { PeopleSettingsList } from '../generated/prisma/client';
import type { BusinessPosition, CardEmail, CardPhone } from '../people/dto/person.dto';
import { TombstonesRepository } from '../company-links/tombstones.repository';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import type { AddressData, CardRecord } from './business-cards.repository';
import { addressColumns, cardColumns, mergedCard } from './card-data';
import {
  checkCountryCode,
  favoriteIndex,
  normalizeEmails,
  normalizePhones,
  normalizePositions,
  notBefore,
  phoneRegion,
} from './card-rules';
import type { CardAddressInput } from './dto/card-address.input';
import type { BusinessCardInput } from './dto/business-card.input';
import type { Tx } from '../database/tx';

type Resource = 'person' | 'card' | 'address' | 'company';

/** An address of a card body: `id` set when it updates one the card has. */
export interface AddressPlan {
  id: string | null;
  data: Omit<AddressData, 'position'>;
}

export interface PreparedCard {
  columns: ReturnType<typeof cardColumns>;
  phones?: CardPhone[];
  emails?: CardEmail[];
  positions?: BusinessPosition[];
  /** The new address list (absent: addresses unchanged). */
  addresses?: AddressPlan[];
  merged: ReturnType<typeof mergedCard>;
  problems: FieldProblem[];
  /** A private card that would point at a company (409). */
  privateWithCompany: boolean;
  /** A company id that is new on the card and must be confirmed by crm-companies. */
  companyToCheck: string | null;
}

/** The domain checks of cards and addresses, shared by writes and validation (B10). */
@Injectable()
export class CardChecks {
  constructor(
    private readonly settings: SettingsLookupService,
    private readonly i18n: I18nService,
    private readonly bus: MessageBus,
    private readonly tombstones: TombstonesRepository,
  ) {}

  private t(key: string, lang: Language, args: Record<string, unknown> = {}): string {
    return this.i18n.t(key, { lang, args }) as string;
  }

  /** Gives the rules of this domain their words (the shared catalogue knows only generic ones). */
  translate(problems: FieldProblem[], lang: Language): FieldProblem[] {
    return problems.map((p) => {
      const key = `cards.rules.${p.rule}`;
      const text = this.i18n.t(key, {
        lang,
        args: { field: p.field, ...p.args },
        defaultValue: '',
      });
      return typeof text === 'string' && text && text !== key ? { ...p, fallback: text } : p;
    });
  }

  invalid(problems: FieldProblem[], lang: Language): AppException {
    return AppException.validation(this.translate(problems, lang));
  }

  notFound(resource: Resource, id: string, lang: Language): AppException {
    return AppException.notFound(this.t(`cards.resource.${resource}`, lang), id);
  }

  privateCard(cardId: string): AppException {
    return AppException.conflictOn('cardId', 'privateCard', 'cards.errors.privateCard', {
      id: cardId,
    });
  }

  /** Asks crm-companies; no answer in time is a 503 naming it (nothing has been written yet). */
  async companyExists(ctx: RequestContext, companyId: string): Promise<boolean> {
    const request: CompanyExistsRequest = { tenantId: ctx.tenantId, companyId };
    const reply = await this.bus.request<CompanyExistsReply>(
      Subjects.crmCompanies.companyExists,
      request,
    );
    return reply?.exists === true;
  }

  /**
   * The first step of a transaction that writes `companyId` onto a card (null: none): holds the
   * company against the consumer of its deletion until the commit, and refuses it as unknown
   * (404, as crm-companies' answer would) when that consumer has run since it was confirmed.
   * Before any row lock: the consumer, holding the company, waits for the cards it disconnects.
   */
  async holdCompany(tx: Tx, ctx: RequestContext, companyId: string | null | undefined) {
    if (companyId && (await this.tombstones.companyDeleted(tx, ctx.tenantId, companyId))) {
      throw this.notFound('company', companyId, ctx.language);
    }
  }

  /** Ids not in the list, as `unknownEntry` problems on their fields. */
  async unknownEntries(
    ctx: RequestContext,
    list: PeopleSettingsList,
    refs: { field: string; id: string }[],
    db?: Tx,
  ): Promise<FieldProblem[]> {
    if (!refs.length) return [];
    const found = await this.settings.entries(
      ctx.tenantId,
      list,
      refs.map((r) => r.id),
      ctx.language,
      db,
    );
    const name = this.t(`cards.lists.${list}`, ctx.language);
    return refs
      .filter((r) => !found.has(r.id))
      .map((r) => ({ field: r.field, rule: 'unknownEntry', args: { list: name } }));
  }

  /** Checks of addresses (B11, B13, the items of a card body): one query for all their types. */
  async addressProblems(
    ctx: RequestContext,
    inputs: { input: CardAddressInput; prefix: string }[],
    db?: Tx,
  ): Promise<FieldProblem[]> {
    const refs = inputs.flatMap(({ input, prefix }) =>
      (input.addressTypes ?? []).map((t, j) => ({
        field: `${prefix}addressTypes[${j}].id`,
        id: t.id,
      })),
    );
    return [
      ...inputs.flatMap(({ input, prefix }) =>
        checkCountryCode(input.countryCode, `${prefix}countryCode`),
      ),
      ...(await this.unknownEntries(ctx, 'ADDRESS_TYPES', refs, db)),
    ];
  }

  /** Everything create (existing null) or update would write, and every problem with it. */
  async prepare(
    ctx: RequestContext,
    input: BusinessCardInput,
    existing: CardRecord | null,
  ): Promise<PreparedCard> {
    const partial = existing !== null;
    const problems: FieldProblem[] = [];
    const merged = mergedCard(input, existing);
    const out: PreparedCard = {
      columns: cardColumns(input, partial),
      merged,
      problems,
      privateWithCompany: merged.isPrivate && merged.companyId !== null,
      companyToCheck:
        merged.companyId && merged.companyId !== (existing?.companyId ?? null)
          ? merged.companyId
          : null,
    };

    if (input.companyRelationType?.id) {
      problems.push(
        ...(await this.unknownEntries(ctx, 'COMPANY_RELATION_TYPES', [
          { field: 'companyRelationType.id', id: input.companyRelationType.id },
        ])),
      );
    }
    problems.push(
      ...notBefore(
        { field: 'validFrom', value: merged.validFrom },
        { field: 'validTo', value: merged.validTo },
      ),
      ...notBefore(
        { field: 'companyRelationSince', value: merged.companyRelationSince },
        { field: 'companyRelationUntil', value: merged.companyRelationUntil },
      ),
    );

    if (input.addresses !== undefined) {
      const items = input.addresses ?? [];
      const known = new Set(existing?.addresses.map((a) => a.id) ?? []);
      const seen = new Set<string>();
      const fav = favoriteIndex(items);
      out.addresses = [];
      for (const [i, item] of items.entries()) {
        if (item.id && (!known.has(item.id) || seen.has(item.id))) {
          const rule = seen.has(item.id) ? 'duplicate' : 'unknownAddress';
          problems.push({ field: `addresses[${i}].id`, rule });
        }
        if (item.id) seen.add(item.id);
        out.addresses.push({
          id: item.id ?? null,
          data: { ...addressColumns(item, false), isFavorite: i === fav },
        });
      }
      problems.push(
        ...(await this.addressProblems(
          ctx,
          items.map((input, i) => ({ input, prefix: `addresses[${i}].` })),
        )),
      );
    }

    if (input.phones !== undefined) {
      const region = phoneRegion(
        out.addresses?.map((a) => ({
          countryCode: a.data.countryCode,
          isFavorite: a.data.isFavorite,
        })) ??
          existing?.addresses ??
          [],
      );
      const phones = normalizePhones(input.phones ?? [], region);
      out.phones = phones.phones;
      problems.push(...phones.problems);
    }
    if (input.emails !== undefined) out.emails = normalizeEmails(input.emails ?? []);
    if (input.businessPositions !== undefined) {
      out.positions = normalizePositions(input.businessPositions ?? []);
    }
    return out;
  }
}
