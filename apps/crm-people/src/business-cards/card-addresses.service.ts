import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@crm/request-context';
import type { CardAddress } from '../people/dto/person.dto';
import { toAddress } from '../people/person.mapper';
import { SettingsLookupService } from '../settings/settings-lookup.service';
import { AddressRecord, BusinessCardsRepository } from './business-cards.repository';
import { BusinessCardsService } from './business-cards.service';
import { addressColumns } from './card-data';
import { CardChecks } from './card-checks.service';
import { successorFavorite } from './card-rules';
import type { CardAddressInput } from './dto/card-address.input';
import type { CardAddressDeleted } from './dto/business-card.output';
import { isUuid } from '@crm/errors';
import type { Tx } from '../database/tx';

/**
 * Addresses of a card (B11-B14) with the seed's favorite rules. Writes lock the card row, so
 * two requests on one card cannot both leave a favorite.
 */
@Injectable()
export class CardAddressesService {
  constructor(
    private readonly repo: BusinessCardsRepository,
    private readonly cards: BusinessCardsService,
    private readonly settings: SettingsLookupService,
    private readonly checks: CardChecks,
  ) {}

  private async toDto(ctx: RequestContext, a: AddressRecord): Promise<CardAddress> {
    const entries = await this.settings.anyEntries(ctx.tenantId, a.addressTypeIds, ctx.language);
    return toAddress(a, entries);
  }

  async get(ctx: RequestContext, personId: string, cardId: string, addressId: string) {
    const card = await this.cards.record(ctx, personId, cardId);
    const found = card.addresses.find((a) => a.id === addressId);
    if (!found) throw this.checks.notFound('address', addressId, ctx.language);
    return this.toDto(ctx, found);
  }

  /** Runs `fn` with the card locked; 404 when the card is not one of the person's. */
  private async onCard<T>(
    ctx: RequestContext,
    personId: string,
    cardId: string,
    fn: (tx: Tx, addresses: AddressRecord[]) => Promise<T>,
  ): Promise<T> {
    if (!isUuid(personId) || !isUuid(cardId)) await this.cards.record(ctx, personId, cardId);
    return this.repo.transaction(async (tx) => {
      if (!(await this.repo.lockCard(tx, ctx.tenantId, personId, cardId))) {
        await this.cards.record(ctx, personId, cardId); // 404 naming the person or the card
      }
      return fn(tx, await this.repo.addresses(tx, ctx.tenantId, cardId));
    });
  }

  private async check(ctx: RequestContext, input: CardAddressInput, tx: Tx) {
    const problems = await this.checks.addressProblems(ctx, [{ input, prefix: '' }], tx);
    if (problems.length) throw this.checks.invalid(problems, ctx.language);
  }

  /** B11: appended last; marked favorite, it takes the status from the previous favorite. */
  async create(ctx: RequestContext, personId: string, cardId: string, input: CardAddressInput) {
    const saved = await this.onCard(ctx, personId, cardId, async (tx, addresses) => {
      await this.check(ctx, input, tx);
      const position = Math.max(-1, ...addresses.map((a) => a.position)) + 1;
      const created = await this.repo.createAddress(tx, ctx.tenantId, cardId, {
        ...addressColumns(input, false),
        isFavorite: input.isFavorite === true,
        position,
      });
      if (created.isFavorite) await this.repo.demoteAddresses(tx, ctx.tenantId, cardId, created.id);
      return created;
    });
    return this.toDto(ctx, saved);
  }

  /** B13: fields not given stay; isFavorite true demotes the previous favorite. */
  async update(
    ctx: RequestContext,
    personId: string,
    cardId: string,
    addressId: string,
    input: CardAddressInput,
  ) {
    const saved = await this.onCard(ctx, personId, cardId, async (tx, addresses) => {
      if (!addresses.some((a) => a.id === addressId)) {
        throw this.checks.notFound('address', addressId, ctx.language);
      }
      await this.check(ctx, input, tx);
      const favorite = input.isFavorite === undefined ? {} : { isFavorite: !!input.isFavorite };
      await this.repo.updateAddress(tx, ctx.tenantId, cardId, addressId, {
        ...addressColumns(input, true),
        ...favorite,
      });
      if (input.isFavorite) await this.repo.demoteAddresses(tx, ctx.tenantId, cardId, addressId);
      return (await this.repo.addresses(tx, ctx.tenantId, cardId)).find((a) => a.id === addressId)!;
    });
    return this.toDto(ctx, saved);
  }

  /** B14: when the favorite goes and exactly one address remains, that one becomes favorite. */
  async remove(
    ctx: RequestContext,
    personId: string,
    cardId: string,
    addressId: string,
  ): Promise<CardAddressDeleted> {
    return this.onCard(ctx, personId, cardId, async (tx, addresses) => {
      if (!addresses.some((a) => a.id === addressId)) {
        throw this.checks.notFound('address', addressId, ctx.language);
      }
      await this.repo.deleteAddresses(tx, ctx.tenantId, cardId, [addressId]);
      const successor = successorFavorite(addresses, new Set([addressId]));
      if (successor) {
        await this.repo.updateAddress(tx, ctx.tenantId, cardId, successor, { isFavorite: true });
      }
      return { id: addressId, newFavoriteId: successor };
    });
  }
}
