import { Injectable } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { PrismaService } from '../database/prisma.service';
import { Prisma } from '../generated/prisma/client';
import type { Tx } from '../database/tx';

/** A card is read with its addresses in order: one SQL query (relationJoins) for one or many. */
export const CARD_INCLUDE = {
  addresses: { orderBy: [{ position: 'asc' }, { id: 'asc' }] },
} satisfies Prisma.BusinessCardInclude;

export type CardRecord = Prisma.BusinessCardGetPayload<{ include: typeof CARD_INCLUDE }>;
export type AddressRecord = CardRecord['addresses'][number];
export type CardData = Omit<
  Prisma.BusinessCardUncheckedCreateInput,
  'id' | 'tenantId' | 'personId' | 'addresses' | 'dateCreated' | 'dateModified'
>;
export type AddressData = Omit<
  Prisma.CardAddressUncheckedCreateInput,
  'id' | 'tenantId' | 'cardId' | 'card'
>;
export type CardOrder = Prisma.BusinessCardOrderByWithRelationInput[];

@Injectable()
export class BusinessCardsRepository {
  constructor(private readonly prisma: PrismaService) {}

  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    return this.prisma.$transaction(fn);
  }

  get client(): Tx {
    return this.prisma;
  }

  /**
   * Locks the person row for the rest of the transaction (card writes of one person run one
   * after the other, so two requests cannot both leave a favorite card). False when unknown.
   */
  async lockPerson(tx: Tx, tenantId: string, personId: string): Promise<boolean> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM "Person" WHERE "tenantId" = ${tenantId} AND id = ${personId}::uuid FOR UPDATE`;
    return rows.length > 0;
  }

  /** Same for a card of a person (address writes of one card run one after the other). */
  async lockCard(tx: Tx, tenantId: string, personId: string, cardId: string): Promise<boolean> {
    const rows = await tx.$queryRaw<{ id: string }[]>`
      SELECT id FROM "BusinessCard"
      WHERE "tenantId" = ${tenantId} AND "personId" = ${personId}::uuid AND id = ${cardId}::uuid
      FOR UPDATE`;
    return rows.length > 0;
  }

  personExists(tenantId: string, personId: string): Promise<boolean> {
    return this.prisma.person.count({ where: { tenantId, id: personId } }).then((n) => n > 0);
  }

  personNames(tenantId: string, personId: string) {
    return this.prisma.person.findFirst({
      where: { tenantId, id: personId },
      select: { salutation: true, title: true, firstname: true, lastname: true },
    });
  }

  find(tenantId: string, cardId: string, personId?: string, db: Tx = this.prisma) {
    return db.businessCard.findFirst({
      where: { tenantId, id: cardId, ...(personId ? { personId } : {}) },
      include: CARD_INCLUDE,
    });
  }

  findMany(tenantId: string, ids: string[]) {
    return this.prisma.businessCard.findMany({
      where: { tenantId, id: { in: ids } },
      include: CARD_INCLUDE,
    });
  }

  /** A page of a person's cards and the total, `q` over business and alternative names. */
  async page(
    tenantId: string,
    personId: string,
    q: string | undefined,
    orderBy: CardOrder,
    skip: number,
    take: number,
  ): Promise<[CardRecord[], number]> {
    const text = q?.trim();
    const where: Prisma.BusinessCardWhereInput = {
      tenantId,
      personId,
      ...(text
        ? {
            OR: (['business', 'alternativeFirstname', 'alternativeLastname'] as const).map((f) => ({
              [f]: { contains: text, mode: 'insensitive' },
            })),
          }
        : {}),
    };
    return Promise.all([
      this.prisma.businessCard.findMany({ where, include: CARD_INCLUDE, orderBy, skip, take }),
      this.prisma.businessCard.count({ where }),
    ]);
  }

  /** Id and favorite flag of every card of a person (favorite rules). */
  cardFlags(tx: Tx, tenantId: string, personId: string) {
    return tx.businessCard.findMany({
      where: { tenantId, personId },
      select: { id: true, isFavorite: true },
      orderBy: [{ dateCreated: 'asc' }, { id: 'asc' }],
    });
  }

  /** Every other card of the person loses the favorite status. */
  demoteCards(tx: Tx, tenantId: string, personId: string, exceptId: string) {
    return tx.businessCard.updateMany({
      where: { tenantId, personId, id: { not: exceptId }, isFavorite: true },
      data: { isFavorite: false, markAsFavorite: false },
    });
  }

  setCardFavorite(tx: Tx, tenantId: string, cardId: string) {
    return tx.businessCard.updateMany({
      where: { tenantId, id: cardId },
      data: { isFavorite: true, markAsFavorite: true },
    });
  }

  async createCard(
    tx: Tx,
    tenantId: string,
    personId: string,
    data: CardData,
    addresses: AddressData[],
  ): Promise<CardRecord> {
    return tx.businessCard.create({
      data: {
        ...data,
        id: randomUUID(),
        tenantId,
        personId,
        addresses: addresses.length
          ? { create: addresses.map((a, position) => ({ ...a, tenantId, position })) }
          : undefined,
      },
      include: CARD_INCLUDE,
    });
  }

  /** Caller has locked and checked the card in this transaction. */
  updateCard(
    tx: Tx,
    tenantId: string,
    cardId: string,
    data: Prisma.BusinessCardUpdateManyMutationInput,
  ) {
    return tx.businessCard.updateMany({ where: { tenantId, id: cardId }, data });
  }

  deleteCards(tx: Tx, tenantId: string, personId: string, ids: string[]) {
    return tx.businessCard.deleteMany({ where: { tenantId, personId, id: { in: ids } } });
  }

  /** Ids among `ids` that are cards of the person (one query). */
  async existingCardIds(tx: Tx, tenantId: string, personId: string, ids: string[]) {
    const rows = await tx.businessCard.findMany({
      where: { tenantId, personId, id: { in: ids } },
      select: { id: true },
    });
    return new Set(rows.map((r) => r.id));
  }

  // --- addresses -------------------------------------------------------------------------

  addresses(tx: Tx, tenantId: string, cardId: string) {
    return tx.cardAddress.findMany({
      where: { tenantId, cardId },
      orderBy: [{ position: 'asc' }, { id: 'asc' }],
    });
  }

  createAddress(tx: Tx, tenantId: string, cardId: string, data: AddressData) {
    return tx.cardAddress.create({ data: { ...data, id: randomUUID(), tenantId, cardId } });
  }

  async updateAddress(
    tx: Tx,
    tenantId: string,
    cardId: string,
    addressId: string,
    data: Prisma.CardAddressUpdateManyMutationInput,
  ) {
    await tx.cardAddress.updateMany({ where: { tenantId, cardId, id: addressId }, data });
  }

  deleteAddresses(tx: Tx, tenantId: string, cardId: string, ids: string[]) {
    return tx.cardAddress.deleteMany({ where: { tenantId, cardId, id: { in: ids } } });
  }

  /** Every other address of the card loses the favorite status. */
  demoteAddresses(tx: Tx, tenantId: string, cardId: string, exceptId: string) {
    return tx.cardAddress.updateMany({
      where: { tenantId, cardId, id: { not: exceptId }, isFavorite: true },
      data: { isFavorite: false },
    });
  }
}
