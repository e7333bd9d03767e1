import { Injectable } from '@nestjs/common';
import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { I18nService } from 'nestjs-i18n';
import { FieldProblem, flattenValidationErrors, translateError } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import { BusinessCardsService } from './business-cards.service';
import { CardChecks } from './card-checks.service';
import { BusinessCardInput } from './dto/business-card.input';
import type { BusinessCardValidation } from './dto/business-card.output';

/** B10: every check of create (or of update, with cardId) without writing. */
@Injectable()
export class CardValidationService {
  constructor(
    private readonly cards: BusinessCardsService,
    private readonly checks: CardChecks,
    private readonly i18n: I18nService,
  ) {}

  async validate(
    ctx: RequestContext,
    personId: string,
    body: unknown,
    cardId?: string,
  ): Promise<BusinessCardValidation> {
    let existing = null;
    if (cardId) existing = await this.cards.record(ctx, personId, cardId);
    else await this.cards.requirePerson(ctx, personId);

    let problems: FieldProblem[];
    let calculated: BusinessCardValidation['calculated'] = null;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      problems = [{ field: 'body', rule: 'isObject' }];
    } else {
      // the same rules the validation pipe applies to B2 and B5
      const input = plainToInstance(BusinessCardInput, body);
      problems = flattenValidationErrors(
        await validate(input, { whitelist: true, forbidNonWhitelisted: true }),
      );
      // domain checks need well-formed input
      if (!problems.length) {
        const prep = await this.checks.prepare(ctx, input, existing);
        problems = prep.problems;
        if (prep.privateWithCompany) problems.push({ field: 'companyId', rule: 'privateCard' });
        else if (
          prep.companyToCheck &&
          !(await this.checks.companyExists(ctx, prep.companyToCheck))
        ) {
          problems.push({ field: 'companyId', rule: 'unknownCompany' });
        }
        if (prep.phones && !problems.length) calculated = { phones: prep.phones };
      }
    }
    const { errors } = translateError(
      this.i18n,
      this.checks.invalid(problems, ctx.language),
      ctx.language,
    );
    return { valid: problems.length === 0, errors, calculated };
  }
}
