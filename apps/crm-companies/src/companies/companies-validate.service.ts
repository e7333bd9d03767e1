import { Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { AppException, checkObject, translateError } from '@crm/errors';
import type { RequestContext } from '@crm/request-context';
import type { CompanyValidationResult } from './dto/company-results.output';
import { CreateCompanyInput } from './dto/company.input';
import { CompanyChecks } from './company-checks.service';
import { websiteDomain } from './company-domain';

/** C14: every check of a create (shape, limits, list entries) without writing anything. */
@Injectable()
export class CompaniesValidateService {
  constructor(
    private readonly checks: CompanyChecks,
    private readonly i18n: I18nService,
  ) {}

  async validate(ctx: RequestContext, raw: unknown): Promise<CompanyValidationResult> {
    const { value, problems } = checkObject(CreateCompanyInput, raw);
    problems.push(...(await this.checks.entryProblems(ctx, [{ prefix: '', input: value }])));
    const { errors } = translateError(this.i18n, AppException.validation(problems), ctx.language);
    const websiteOk = !problems.some((p) => p.field === 'website');
    return {
      valid: problems.length === 0,
      errors,
      calculated: {
        websiteDomain:
          websiteOk && typeof value.website === 'string' ? websiteDomain(value.website) : null,
      },
    };
  }
}
