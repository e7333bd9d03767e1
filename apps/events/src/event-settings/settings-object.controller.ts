import { Body, Controller, Get, HttpCode, Post, Put } from '@nestjs/common';
import { ApiBody, ApiOperation, ApiTags } from '@nestjs/swagger';
import { Ctx, RequestContext } from '@crm/request-context';
import { ApiEnvelope } from '@crm/service-kit';
import { UpdateEventSettingsInput } from './dto/settings-object.input';
import { EventSettingsValidationResult, EventSettingsView } from './dto/settings-object.output';
import { EventSettingsObjectService } from './settings-object.service';

const RULES =
  'PUT replaces the whole object: absent or null fields take their defaults (timeZone ' +
  'Europe/Berlin, currency EUR, no event defaults, no invoice sender fields). timeZone: an IANA ' +
  'zone (stored in its canonical spelling); currency: an ISO 4217 code; eventDefaults: capacity ' +
  '1-1000000, categoryId / bookingFormFieldSetId / cancellationConditionId entries of their ' +
  'lists, taxRateId an id of the tax-rates vendor list, contactPersonTemplateId a template of ' +
  'the tenant (each checked: 400 naming the field); invoiceSender: country ISO 3166-1 alpha-2, ' +
  'email, IBAN (country, length, checksum; stored without blanks) and BIC checked. A default ' +
  'whose entry is deleted later reads as null.';

@ApiTags('Event settings')
@Controller('event-settings')
export class EventSettingsObjectController {
  constructor(private readonly settings: EventSettingsObjectService) {}

  @Get()
  @ApiOperation({
    summary: 'ES1 The event settings of the current tenant',
    description:
      'ES1. Time zone, currency, defaults for new events and the invoice sender, with defaults ' +
      'applied while the tenant has saved none (dateModified null).',
  })
  @ApiEnvelope(EventSettingsView)
  get(@Ctx() ctx: RequestContext): Promise<EventSettingsView> {
    return this.settings.get(ctx);
  }

  @Put()
  @ApiOperation({ summary: 'ES2 Update the event settings', description: `ES2. ${RULES}` })
  @ApiBody({ type: UpdateEventSettingsInput })
  @ApiEnvelope(EventSettingsView)
  put(@Ctx() ctx: RequestContext, @Body() body: unknown): Promise<EventSettingsView> {
    return this.settings.put(ctx, body);
  }

  @Post('validate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'ES3 Validate the event settings',
    description:
      'ES3. Runs every check of ES2 without writing. Always 200: data.valid, data.errors ' +
      `[{ field, rule, message }]. ${RULES}`,
  })
  @ApiBody({ type: UpdateEventSettingsInput })
  @ApiEnvelope(EventSettingsValidationResult)
  validate(
    @Ctx() ctx: RequestContext,
    @Body() body: unknown,
  ): Promise<EventSettingsValidationResult> {
    return this.settings.validate(ctx, body);
  }
}
