import { HttpException, NotFoundException, PayloadTooLargeException } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Type } from 'class-transformer';
import { plainToInstance } from 'class-transformer';
import {
  IsArray,
  IsISO8601,
  IsNotEmpty,
  IsString,
  IsUUID,
  MaxLength,
  ValidateNested,
  validateSync,
} from 'class-validator';
import { I18nService } from 'nestjs-i18n';
import { CrmI18nModule } from '@crm/i18n';
import { AppException } from './app.exception';
import { toAppException } from './all-exceptions.filter';
import { ErrorCode, HTTP_STATUS } from './error-code';
import { translateError } from './translate';
import { flattenValidationErrors } from './validation';

class Tag {
  @IsString() @MaxLength(5) text!: string;
}
class Body {
  @IsString() @MaxLength(3) name!: string;
  @IsArray() @ValidateNested({ each: true }) @Type(() => Tag) tags!: Tag[];
}

describe('errors', () => {
  let i18n: I18nService;
  beforeAll(async () => {
    const mod = await Test.createTestingModule({ imports: [CrmI18nModule.forRoot()] }).compile();
    await mod.init();
    i18n = mod.get(I18nService);
  });

  it('maps every code to a status, once', () => {
    expect(HTTP_STATUS[ErrorCode.NOT_FOUND]).toBe(404);
    expect(HTTP_STATUS[ErrorCode.VALIDATION_FAILED]).toBe(400);
    expect(HTTP_STATUS[ErrorCode.SERVICE_UNAVAILABLE]).toBe(503);
    expect(Object.keys(HTTP_STATUS)).toHaveLength(Object.keys(ErrorCode).length);
  });

  it('reports nested fields with path, rule and the decorator argument', () => {
    const body = plainToInstance(Body, {
      name: 'abcd',
      tags: [{ text: 'ok' }, { text: 'toolong' }],
    });
    const problems = flattenValidationErrors(validateSync(body));
    expect(problems).toEqual([
      expect.objectContaining({ field: 'name', rule: 'maxLength', args: { constraint1: '3' } }),
      expect.objectContaining({
        field: 'tags[1].text',
        rule: 'maxLength',
        args: { constraint1: '5' },
      }),
    ]);
  });

  it('translates messages and field errors by language', () => {
    const err = AppException.validation([
      { field: 'firstname', rule: 'maxLength', args: { constraint1: 200 } },
    ]);
    const en = translateError(i18n, err, 'en');
    const de = translateError(i18n, err, 'de');
    expect(en.message).toBe('The request is invalid: 1 problem found');
    expect(en.errors[0]).toEqual({
      field: 'firstname',
      rule: 'maxLength',
      message: 'firstname must be at most 200 characters long',
    });
    expect(de.errors[0].message).toBe('firstname darf höchstens 200 Zeichen lang sein');
    const missing = new AppException(ErrorCode.BAD_REQUEST, 'errors.header.missing', {
      header: 'X-Service-TenantId',
    });
    expect(translateError(i18n, missing, 'de').message).toBe(
      'Der Header X-Service-TenantId ist erforderlich und darf nicht leer sein',
    );
  });

  it('reads singular and plural right in en and de (plural forms chosen by count)', () => {
    const two = AppException.validation([
      { field: 'ids', rule: 'arrayMinSize', args: { constraint1: '1' } },
      { field: 'tags', rule: 'arrayMaxSize', args: { constraint1: '20' } },
      { field: 'code', rule: 'minLength', args: { constraint1: 1 } },
      { field: 'name', rule: 'maxLength', args: { constraint1: '1' } },
    ]);
    const en = translateError(i18n, two, 'en');
    const de = translateError(i18n, two, 'de');
    expect(en.message).toBe('The request is invalid: 4 problems found');
    expect(de.message).toBe('Die Anfrage ist ungültig: 4 Probleme gefunden');
    expect(en.errors.map((e) => e.message)).toEqual([
      'ids must hold at least 1 element',
      'tags must hold at most 20 elements',
      'code must be at least 1 character long',
      'name must be at most 1 character long',
    ]);
    expect(de.errors.map((e) => e.message)).toEqual([
      'ids muss mindestens 1 Element enthalten',
      'tags darf höchstens 20 Elemente enthalten',
      'code muss mindestens 1 Zeichen lang sein',
      'name darf höchstens 1 Zeichen lang sein',
    ]);
    const one = AppException.invalidField('x', 'isString');
    expect(translateError(i18n, one, 'de').message).toBe(
      'Die Anfrage ist ungültig: 1 Problem gefunden',
    );
  });

  it('falls back to the validator text for a rule without a catalogue entry', () => {
    const err = AppException.validation([
      { field: 'x', rule: 'isFancy', fallback: 'x must be fancy' },
    ]);
    expect(translateError(i18n, err, 'en').errors[0].message).toBe('x must be fancy');
  });

  it('maps framework errors onto codes', () => {
    expect(toAppException(new NotFoundException('Cannot GET /v1/crm/nope'))).toMatchObject({
      code: ErrorCode.NOT_FOUND,
      messageKey: 'errors.notFound.route',
      args: { method: 'GET', path: '/v1/crm/nope' },
    });
    expect(toAppException(new PayloadTooLargeException()).code).toBe(ErrorCode.PAYLOAD_TOO_LARGE);
    expect(toAppException({ type: 'entity.parse.failed', status: 400 }).messageKey).toBe(
      'errors.badJson',
    );
    expect(toAppException(new Error('boom'), { error: () => undefined } as never).code).toBe(
      ErrorCode.INTERNAL,
    );
  });

  it("translates Fastify's and Nest's English-only errors: no raw framework text reaches a caller", async () => {
    // Fastify's router and content-type parser errors, as Nest hands them to the filter
    const cases: [unknown, string][] = [
      [new HttpException('Unsupported Media Type', 415), 'errors.unsupportedMediaType'],
      [
        new HttpException("'/v1/crm/people/%zz' is not a valid url component", 400),
        'errors.badUrl',
      ],
      [new HttpException('Bad Request', 400), 'errors.badRequest'],
      [new HttpException('Method Not Allowed', 405), 'errors.httpStatus'],
      [
        Object.assign(new Error("'/x/%' is not a valid url component"), {
          code: 'FST_ERR_BAD_URL',
          statusCode: 400,
        }),
        'errors.badUrl',
      ],
      [
        Object.assign(new Error("'/x' is exceeding the max param length"), {
          code: 'FST_ERR_MAX_PARAM_LENGTH',
          statusCode: 414,
        }),
        'errors.uriTooLong',
      ],
    ];
    for (const [exception, key] of cases) {
      const err = toAppException(exception);
      expect(err.messageKey).toBe(key);
      expect(err.status).toBeLessThan(500);
      const de = translateError(i18n, err, 'de').message;
      expect(de).not.toBe(translateError(i18n, err, 'en').message);
      expect(de).not.toContain(key);
    }
    expect(translateError(i18n, toAppException(new HttpException('x', 405)), 'de').message).toBe(
      'Die Anfrage wurde abgelehnt (HTTP 405)',
    );
  });

  it('survives a trip over NATS as the same error', () => {
    const original = AppException.notFound('Person', 'p1');
    const back = toAppException(JSON.parse(JSON.stringify(original.toRpc())));
    expect(back).toBeInstanceOf(AppException);
    expect(back).toMatchObject({
      code: ErrorCode.NOT_FOUND,
      args: { resource: 'Person', id: 'p1' },
    });
  });
});

describe('one problem per field', () => {
  class Named {
    @IsString() @IsNotEmpty() @MaxLength(3) name!: string;
  }

  it('reports the most basic rule a field breaks', () => {
    const missing = flattenValidationErrors(validateSync(plainToInstance(Named, {})));
    expect(missing).toEqual([expect.objectContaining({ field: 'name', rule: 'isNotEmpty' })]);
    const number = flattenValidationErrors(validateSync(plainToInstance(Named, { name: 12345 })));
    expect(number).toEqual([expect.objectContaining({ field: 'name', rule: 'isString' })]);
    const long = flattenValidationErrors(validateSync(plainToInstance(Named, { name: 'abcd' })));
    expect(long).toEqual([expect.objectContaining({ field: 'name', rule: 'maxLength' })]);
  });
});

describe('catalogue keys', () => {
  it('match the rule names class-validator reports', async () => {
    const mod = await Test.createTestingModule({ imports: [CrmI18nModule.forRoot()] }).compile();
    await mod.init();
    const i18n = mod.get<I18nService<Record<string, unknown>>>(I18nService);
    class Ids {
      @IsUUID() id!: string;
      @IsISO8601() at!: string;
    }
    const rules = flattenValidationErrors(
      validateSync(plainToInstance(Ids, { id: 'x', at: 'y' })),
    ).map((p) => p.rule);
    expect(rules).toEqual(['isUuid', 'isIso8601']);
    const problems = rules.map((rule) => ({ field: 'f', rule, fallback: 'untranslated' }));
    const de = translateError(i18n, AppException.validation(problems), 'de');
    expect(de.errors.map((e) => e.message)).toEqual([
      'f muss eine UUID sein',
      'f muss ein Datum mit Uhrzeit nach ISO 8601 sein',
    ]);
  });
});
