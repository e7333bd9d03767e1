import { Injectable } from '@nestjs/common';
import { isISO31661Alpha2 } from 'class-validator';
import { I18nService } from 'nestjs-i18n';
import {
  AppException,
  checkObject,
  FieldProblem,
  throwIfProblems,
  translateError,
} from '@crm/errors';
import { modifiedStamps } from '@crm/persistence';
import type { RequestContext } from '@crm/request-context';
import { PrismaService } from '../database/prisma.service';
import { UpdateEventSettingsInput } from './dto/settings-object.input';
import type {
  EventSettingsValidationResult,
  EventSettingsView,
} from './dto/settings-object.output';
import { DEFAULT_ENTRY_LISTS, EventSettingsLookup } from './event-settings-lookup.service';
import {
  DEFAULT_CURRENCY,
  DEFAULT_TIME_ZONE,
  EVENT_DEFAULT_KEYS,
  EventDefaults,
  INVOICE_SENDER_KEYS,
  InvoiceSender,
} from './settings-object';
import {
  canonicalTimeZone,
  checkBic,
  checkIban,
  currencyProblem,
  settingsProblem,
  timeZoneProblem,
} from './settings-object.rules';

interface Checked {
  problems: FieldProblem[];
  /** What ES2 stores (only meaningful without problems). */
  value: {
    timeZone: string;
    currency: string;
    eventDefaults: EventDefaults;
    invoiceSender: InvoiceSender;
  };
}

const blankToNull = (v: string | null | undefined): string | null => {
  const t = v?.trim();
  return t ? t : null;
};

/** ES1-ES3: the tenant's event settings object (table EventSettings; no row: defaults). */
@Injectable()
export class EventSettingsObjectService {
  constructor(
    private readonly prisma: PrismaService,
    private readonly lookup: EventSettingsLookup,
    private readonly i18n: I18nService,
  ) {}

  /** ES1. */
  get(ctx: RequestContext): Promise<EventSettingsView> {
    return this.lookup.settingsOf(ctx.tenantId);
  }

  /** Every check of ES2: shape, zone, currency, IBAN/BIC, every default naming what exists. */
  private async check(ctx: RequestContext, raw: unknown): Promise<Checked> {
    const { value: input, problems } = checkObject(UpdateEventSettingsInput, raw);
    const at = (field: string) => problems.some((p) => p.field === field);
    const push = (p: FieldProblem | null) => p && !at(p.field) && problems.push(p);

    const zone = input.timeZone ?? DEFAULT_TIME_ZONE;
    if (typeof zone === 'string' && !at('timeZone')) push(timeZoneProblem('timeZone', zone));
    const currency = input.currency ?? DEFAULT_CURRENCY;
    if (typeof currency === 'string' && !at('currency'))
      push(currencyProblem('currency', currency));

    const d = input.eventDefaults ?? {};
    const defaults = Object.fromEntries(
      EVENT_DEFAULT_KEYS.map((k) => [k, d[k] ?? null]),
    ) as unknown as EventDefaults;
    for (const key of [
      'categoryId',
      'bookingFormFieldSetId',
      'cancellationConditionId',
      'contactPersonTemplateId',
    ] as const) {
      if (typeof defaults[key] === 'string')
        defaults[key] = (defaults[key] as string).toLowerCase();
    }
    const refs = DEFAULT_ENTRY_LISTS.map(([key, list]) => ({
      field: `eventDefaults.${key}`,
      list,
      id: typeof defaults[key] === 'string' && !at(`eventDefaults.${key}`) ? defaults[key] : null,
    }));
    for (const p of await this.lookup.entryProblems(ctx.tenantId, refs, ctx.language)) push(p);
    if (
      typeof defaults.taxRateId === 'string' &&
      !at('eventDefaults.taxRateId') &&
      !this.lookup.isTaxRate(defaults.taxRateId)
    )
      push(
        settingsProblem('eventDefaults.taxRateId', 'unknownTaxRate', { value: defaults.taxRateId }),
      );
    if (
      typeof defaults.contactPersonTemplateId === 'string' &&
      !at('eventDefaults.contactPersonTemplateId') &&
      !(await this.lookup.isTemplate(ctx.tenantId, defaults.contactPersonTemplateId))
    )
      push(settingsProblem('eventDefaults.contactPersonTemplateId', 'unknownTemplate'));

    const s = input.invoiceSender ?? {};
    const sender = Object.fromEntries(
      INVOICE_SENDER_KEYS.map((k) => [k, typeof s[k] === 'string' ? blankToNull(s[k]) : null]),
    ) as unknown as InvoiceSender;
    if (sender.country && !at('invoiceSender.country')) {
      sender.country = sender.country.toUpperCase();
      if (!isISO31661Alpha2(sender.country))
        push(settingsProblem('invoiceSender.country', 'country', { value: sender.country }));
    }
    if (sender.iban && !at('invoiceSender.iban')) {
      const iban = checkIban('invoiceSender.iban', sender.iban);
      push(iban.problem);
      sender.iban = iban.value;
    }
    if (sender.bic && !at('invoiceSender.bic')) {
      const bic = checkBic('invoiceSender.bic', sender.bic);
      push(bic.problem);
      sender.bic = bic.value;
    }
    return {
      problems,
      value: {
        timeZone: (typeof zone === 'string' && canonicalTimeZone(zone)) || DEFAULT_TIME_ZONE,
        currency: typeof currency === 'string' ? currency.toUpperCase() : DEFAULT_CURRENCY,
        eventDefaults: defaults,
        invoiceSender: sender,
      },
    };
  }

  /** ES2: replaces the settings (absent fields: defaults), in one statement. */
  async put(ctx: RequestContext, raw: unknown): Promise<EventSettingsView> {
    const { problems, value } = await this.check(ctx, raw);
    throwIfProblems(problems);
    const data = {
      timeZone: value.timeZone,
      currency: value.currency,
      eventDefaults: { ...value.eventDefaults },
      invoiceSender: { ...value.invoiceSender },
      ...modifiedStamps(ctx),
    };
    await this.prisma.eventSettings.upsert({
      where: { tenantId: ctx.tenantId },
      create: { tenantId: ctx.tenantId, ...data },
      update: data,
    });
    return this.get(ctx);
  }

  /** ES3: every check of ES2 without writing; always answers (200). */
  async validate(ctx: RequestContext, raw: unknown): Promise<EventSettingsValidationResult> {
    const { problems } = await this.check(ctx, raw);
    const { errors } = translateError(this.i18n, AppException.validation(problems), ctx.language);
    return { valid: problems.length === 0, errors };
  }
}
