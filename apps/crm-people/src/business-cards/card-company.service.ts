import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@crm/request-context';
import type { BusinessCard } from '../people/dto/person.dto';
import { BusinessCardsRepository } from './business-cards.repository';
import { BusinessCardsService } from './business-cards.service';
import { CardChecks } from './card-checks.service';
import { notBefore, toDate } from './card-rules';
import type { ConnectCompanyInput } from './dto/business-card.input';

/** B8: a card and a company of crm-companies. */
@Injectable()
export class CardCompanyService {
  constructor(
    private readonly repo: BusinessCardsRepository,
    private readonly cards: BusinessCardsService,
    private readonly checks: CardChecks,
  ) {}

  /**
   * Connects (companyId) or disconnects (null) a card. The body replaces the whole connection:
   * relation type and dates not given are cleared, and disconnecting clears them all. A private
   * card cannot be connected (409). A new company is confirmed by crm-companies first: unknown
   * -> 404, no answer -> 503, and in both cases nothing is written. Disconnecting asks no one.
   */
  async connect(
    ctx: RequestContext,
    personId: string,
    cardId: string,
    input: ConnectCompanyInput,
  ): Promise<BusinessCard> {
    const existing = await this.cards.record(ctx, personId, cardId);
    const companyId = input.companyId ?? null;
    const connection = companyId
      ? {
          companyId,
          companyRelationTypeId: input.companyRelationType?.id ?? null,
          companyRelationSince: toDate(input.companyRelationSince),
          companyRelationUntil: toDate(input.companyRelationUntil),
        }
      : {
          companyId: null,
          companyRelationTypeId: null,
          companyRelationSince: null,
          companyRelationUntil: null,
        };

    if (companyId) {
      const problems = [
        ...(connection.companyRelationTypeId
          ? await this.checks.unknownEntries(ctx, 'COMPANY_RELATION_TYPES', [
              { field: 'companyRelationType.id', id: connection.companyRelationTypeId },
            ])
          : []),
        ...notBefore(
          { field: 'companyRelationSince', value: connection.companyRelationSince },
          { field: 'companyRelationUntil', value: connection.companyRelationUntil },
        ),
      ];
      if (problems.length) throw this.checks.invalid(problems, ctx.language);
      if (existing.isPrivate) throw this.checks.privateCard(cardId);
      // the company of the card was confirmed when it was connected
      if (companyId !== existing.companyId && !(await this.checks.companyExists(ctx, companyId))) {
        throw this.checks.notFound('company', companyId, ctx.language);
      }
    }

    const record = await this.repo.transaction(async (tx) => {
      await this.checks.holdCompany(tx, ctx, companyId);
      if (!(await this.repo.lockCard(tx, ctx.tenantId, personId, cardId))) {
        throw this.checks.notFound('card', cardId, ctx.language);
      }
      const current = (await this.repo.find(ctx.tenantId, cardId, personId, tx))!;
      // made private while crm-companies was asked
      if (companyId && current.isPrivate) throw this.checks.privateCard(cardId);
      await this.repo.updateCard(tx, ctx.tenantId, cardId, connection);
      return (await this.repo.find(ctx.tenantId, cardId, personId, tx))!;
    });
    return (await this.cards.toDtos(ctx, [record]))[0];
  }
}
