import type { AttemptRow, DeliveryRow, EndpointRow } from './webhooks.repository';
import type { WebhookDelivery, WebhookEndpoint } from './dto/webhook-endpoint.output';

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The row as I1/I2 show it: never the secrets. */
export function toEndpoint(row: EndpointRow, now = new Date()): WebhookEndpoint {
  const overlap = row.previousSecretExpiresAt && row.previousSecretExpiresAt > now;
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    eventTypes: row.eventTypes,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    disabledAt: iso(row.disabledAt),
    failingSince: iso(row.failingSince),
    previousSecretExpiresAt: overlap ? iso(row.previousSecretExpiresAt) : null,
    createdBy: row.createdBy,
    modifiedBy: row.modifiedBy,
    dateCreated: row.dateCreated.toISOString(),
    dateModified: row.dateModified.toISOString(),
  };
}

export function toDelivery(row: DeliveryRow, attempts: AttemptRow[]): WebhookDelivery {
  return {
    id: row.id,
    endpointId: row.endpointId,
    messageId: row.messageId,
    eventType: row.message.type,
    status: row.status,
    attempts: row.attempts,
    nextAttemptAt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
    lastResponseCode: row.lastResponseCode,
    lastDurationMs: row.lastDurationMs,
    lastError: row.lastError,
    dateCreated: row.dateCreated.toISOString(),
    dateDelivered: iso(row.dateDelivered),
    attemptLog: attempts.map((a) => ({
      attemptedAt: a.attemptedAt.toISOString(),
      responseCode: a.responseCode,
      durationMs: a.durationMs,
      error: a.error,
    })),
  };
}
