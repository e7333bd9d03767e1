import { Inject, Injectable } from '@nestjs/common';
import { I18nService } from 'nestjs-i18n';
import { Paged, paged } from '@crm/envelope';
import { AppException, isUuid, throwIfProblems } from '@crm/errors';
import { PageQuery, parseSort, skipTake, toOrderBy } from '@crm/paging';
import type { RequestContext } from '@crm/request-context';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { EventsConfig } from '../config';
import type {
  RegisterWebhookEndpointInput,
  RotateWebhookSecretInput,
  UpdateWebhookEndpointInput,
} from './dto/webhook-endpoint.input';
import type {
  RegisteredWebhookEndpoint,
  RotatedWebhookSecret,
  WebhookEndpoint,
  WebhookEndpointRemoved,
} from './dto/webhook-endpoint.output';
import { toEndpoint } from './webhook.mapper';
import { DEFAULT_OVERLAP_MINUTES, newSecret } from './webhook-rules';
import { WebhookSecrets } from './webhook-secrets';
import { checkEndpointUrl } from './webhook-url';
import type { Tx } from '../database/tx';
import { ENDPOINT_SORT_FIELDS, EndpointRow, WebhooksRepository } from './webhooks.repository';

const text = (v: string | null | undefined) => (v == null ? null : v.trim() || null);

/** Webhook endpoints of the tenant (I1, I2, I6). */
@Injectable()
export class WebhookEndpointsService {
  constructor(
    private readonly repo: WebhooksRepository,
    private readonly secrets: WebhookSecrets,
    private readonly i18n: I18nService,
    @Inject(SERVICE_CONFIG) private readonly config: EventsConfig,
  ) {}

  notFound(ctx: RequestContext, id: string): AppException {
    const resource = this.i18n.t('webhooks.resource.endpoint', { lang: ctx.language });
    return AppException.notFound(resource as string, id);
  }

  /** The tenant's endpoint, or 404 (also for a malformed id and another tenant's). */
  async require(ctx: RequestContext, id: string, tx?: Tx): Promise<EndpointRow> {
    const row = isUuid(id)
      ? tx
        ? await this.repo.lockEndpoint(tx, ctx.tenantId, id)
        : await this.repo.findEndpoint(ctx.tenantId, id)
      : null;
    if (!row) throw this.notFound(ctx, id);
    return row;
  }

  private async url(raw: string): Promise<string> {
    const checked = await checkEndpointUrl(raw, this.config.WEBHOOK_ALLOW_PRIVATE_ADDRESSES);
    if ('problem' in checked) throwIfProblems([checked.problem]);
    return (checked as { url: string }).url;
  }

  async list(ctx: RequestContext, query: PageQuery): Promise<Paged<WebhookEndpoint>> {
    const sort = parseSort(
      query.sort,
      ENDPOINT_SORT_FIELDS,
      [{ field: 'dateCreated', direction: 'asc' }],
      'id',
    );
    const [rows, total] = await this.repo.pageEndpoints(ctx.tenantId, {
      ...skipTake(query),
      orderBy: toOrderBy(sort),
    });
    return paged(
      rows.map((r) => toEndpoint(r)),
      total,
    );
  }

  async read(ctx: RequestContext, id: string): Promise<WebhookEndpoint> {
    return toEndpoint(await this.require(ctx, id));
  }

  /** I1 POST: the secret is in this answer only (stored sealed). */
  async register(
    ctx: RequestContext,
    input: RegisterWebhookEndpointInput,
  ): Promise<RegisteredWebhookEndpoint> {
    const url = await this.url(input.url);
    const secret = newSecret();
    const enabled = input.enabled !== false;
    const row = await this.repo.transaction(async (tx) => {
      await this.repo.lockTenant(tx, ctx.tenantId);
      const max = this.config.WEBHOOK_MAX_ENDPOINTS_PER_TENANT;
      if ((await this.repo.countEndpoints(tx, ctx.tenantId)) >= max) {
        throw AppException.conflictOn('endpoints', 'tooMany', 'webhooks.conflict.tooMany', { max });
      }
      return this.repo.createEndpoint(tx, {
        tenantId: ctx.tenantId,
        url,
        description: text(input.description),
        eventTypes: input.eventTypes,
        enabled,
        disabledReason: enabled ? null : 'Disabled by the owner',
        disabledAt: enabled ? null : new Date(),
        secret: this.secrets.seal(secret),
        createdBy: ctx.integrationName,
        modifiedBy: ctx.integrationName,
      });
    });
    return { ...toEndpoint(row), secret };
  }

  /** I2 PUT: fields not given stay; enabling clears why it was disabled and the failure run. */
  async update(
    ctx: RequestContext,
    id: string,
    input: UpdateWebhookEndpointInput,
  ): Promise<WebhookEndpoint> {
    const url = input.url === undefined ? undefined : await this.url(input.url);
    const row = await this.repo.transaction(async (tx) => {
      const current = await this.require(ctx, id, tx);
      const now = new Date();
      const enabling = input.enabled === true && !current.enabled;
      const disabling = input.enabled === false && current.enabled;
      return this.repo.updateEndpoint(tx, id, {
        // a new address is a new start: the failure run of the old one no longer counts
        ...(url !== undefined && url !== current.url ? { url, failingSince: null } : {}),
        ...(input.description !== undefined ? { description: text(input.description) } : {}),
        ...(input.eventTypes !== undefined ? { eventTypes: input.eventTypes } : {}),
        ...(enabling
          ? { enabled: true, disabledReason: null, disabledAt: null, failingSince: null }
          : {}),
        ...(disabling
          ? { enabled: false, disabledReason: 'Disabled by the owner', disabledAt: now }
          : {}),
        modifiedBy: ctx.integrationName,
      });
    });
    return toEndpoint(row);
  }

  /** I2 DELETE: its deliveries and their log go with it. */
  async remove(ctx: RequestContext, id: string): Promise<WebhookEndpointRemoved> {
    await this.repo.transaction(async (tx) => {
      await this.require(ctx, id, tx);
      await this.repo.deleteEndpoint(tx, ctx.tenantId, id);
    });
    return { id };
  }

  /**
   * I6: a new secret, returned once; the current one becomes the previous one and still signs
   * (a second signature) until the overlap ends. A rotation during an overlap drops the oldest.
   */
  async rotate(
    ctx: RequestContext,
    id: string,
    input: RotateWebhookSecretInput,
  ): Promise<RotatedWebhookSecret> {
    const minutes = input.overlapMinutes ?? DEFAULT_OVERLAP_MINUTES;
    const secret = newSecret();
    return this.repo.transaction(async (tx) => {
      const current = await this.require(ctx, id, tx);
      const expires = minutes > 0 ? new Date(Date.now() + minutes * 60_000) : null;
      await this.repo.updateEndpoint(tx, id, {
        secret: this.secrets.seal(secret),
        // sealed already, unless it is a plain one from before sealing or of an older key
        previousSecret: expires ? this.secrets.reseal(current.secret) : null,
        previousSecretExpiresAt: expires,
        modifiedBy: ctx.integrationName,
      });
      return { id, secret, previousSecretExpiresAt: expires?.toISOString() ?? null };
    });
  }
}
