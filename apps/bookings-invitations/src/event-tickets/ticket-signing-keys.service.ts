import { Injectable } from '@nestjs/common';
import type { RequestContext } from '@crm/request-context';
import { EventLookup } from '../event-copies/event-lookup.service';
import { PublishedKey, SigningKeys } from '../ticket-codes/signing-keys';
import { eventEndOf } from '../ticket-codes/ticket-code';
import type { RotateSigningKeyInput } from './dto/event-ticket.input';
import type { SigningKeyRotation, TicketSigningKey } from './dto/event-ticket.output';

type EventDates = { startsAt: Date | null; endsAt: Date | null } | null;

/** A key as ET13 and ET14 show it: retired keys are accepted until the event's end. */
export function toTicketSigningKey(k: PublishedKey, event: EventDates): TicketSigningKey {
  const end = k.retiredAt ? eventEndOf(event) : null;
  return {
    keyId: k.keyId,
    current: k.retiredAt === null,
    publicKey: k.publicKeyRaw,
    publicKeyPem: k.publicKeyPem,
    publicKeyJwk: { kty: 'OKP', crv: 'Ed25519', x: k.publicKeyRaw, kid: k.keyId },
    dateCreated: k.dateCreated.toISOString(),
    retiredAt: k.retiredAt?.toISOString() ?? null,
    validUntil: end?.toISOString() ?? null,
  };
}

/**
 * ET14: an organiser replaces an event's signing key (a key that may have leaked, or routine
 * renewal). The new key signs every code from then on (a ticket read again, resent or exported
 * shows a code of the new key); codes of the old key, already printed or mailed, keep admitting
 * until the event has ended, online (ET9) and offline (ET13 lists every key with validUntil).
 */
@Injectable()
export class TicketSigningKeysService {
  constructor(
    private readonly keys: SigningKeys,
    private readonly events: EventLookup,
  ) {}

  /** The event's keys, the current one first (ET13). */
  async keysOf(tenantId: string, eventId: string, event: EventDates): Promise<TicketSigningKey[]> {
    return (await this.keys.all(tenantId, eventId)).map((k) => toTicketSigningKey(k, event));
  }

  /** ET14: 404 for an unknown or another tenant's event. */
  async rotate(ctx: RequestContext, input: RotateSigningKeyInput): Promise<SigningKeyRotation> {
    const event = await this.events.require(ctx, input.eventId);
    const eventId = input.eventId.toLowerCase();
    const done = await this.keys.rotate(ctx.tenantId, eventId);
    const keys = await this.keysOf(ctx.tenantId, eventId, event);
    return {
      eventId,
      current: keys.find((k) => k.keyId === done.keyId)!,
      retired: keys.find((k) => k.keyId === done.retiredKeyId) ?? null,
    };
  }
}
