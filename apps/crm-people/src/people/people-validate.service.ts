import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, checkObject, translateError } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import type { PersonValidationResult } from './dto/people-results.dto';
import { CreatePersonInput } from './dto/person.input';
import { PeopleChecks } from './people-checks.service';
import { displayName, initials } from './person.mapper';

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);

/** P15: every check of a create (shape, limits, list entries) without writing anything. */
@Injectable()
export class PeopleValidateService {
  constructor(
    private readonly checks: PeopleChecks,
    private readonly i18n: I18nService,
  ) {}

  async validate(ctx: RequestContext, raw: unknown): Promise<PersonValidationResult> {
    const { value, problems } = checkObject(CreatePersonInput, raw);
    problems.push(...(await this.checks.entryProblems(ctx, [{ prefix: '', input: value }])));
    const { errors } = translateError(this.i18n, AppException.validation(problems), ctx.language);
    const names = { firstname: str(value.firstname), lastname: str(value.lastname) };
    return {
      valid: problems.length === 0,
      errors,
      calculated: { name: displayName(names), initials: initials(names) },
    };
  }
}
