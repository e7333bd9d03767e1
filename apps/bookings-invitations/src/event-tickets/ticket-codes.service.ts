import { Injectable } from '@nestjs/common';
import { EventCopiesRepository } from '../event-copies/event-copies.repository';
import { CodeVerdict, PublishedKey, SigningKey, SigningKeys } from '../ticket-codes/signing-keys';
import { validUntilOf } from '../ticket-codes/ticket-code';

/** ET13's `codeFormat`: enough for a scanner vendor to verify a code offline. */
export const CODE_FORMAT =
  'v1.<keyId>.<payload>.<signature>, ASCII. payload: base64url (RFC 4648 §5, no padding) of 36 ' +
  'bytes: ticket id (16 bytes of the UUID), event id (16 bytes), validUntil (uint32 big-endian, ' +
  'Unix seconds, 0 = no end; one day after the event ends). signature: base64url (no padding) ' +
  'of the 64-byte Ed25519 signature (RFC 8032) over the ASCII bytes of "v1.<keyId>.<payload>". ' +
  'A code is genuine when its keyId is one of the event’s keys (`keys`; new codes carry the ' +
  'current one, `keyId`) and the signature verifies with that key’s publicKey; it admits when ' +
  'the key’s validUntil (retired keys: the event’s end) and the code’s validUntil have not ' +
  'passed and its ticket id is not on the revoked list.';

/** The signed codes of tickets, with the keys and event facts they need read once per event. */
@Injectable()
export class TicketCodes {
  constructor(
    private readonly keys: SigningKeys,
    private readonly eventCopies: EventCopiesRepository,
  ) {}

  /**
   * The event's current key (ET13, exports): null when the event has none, i.e. no ticket type
   * was ever created for it and so it has no tickets. Reads never create a key (SigningKeys).
   */
  keyOf(tenantId: string, eventId: string): Promise<SigningKey | null> {
    return this.keys.current(tenantId, eventId);
  }

  /** Every key of the event (ET13), the current one first. */
  keysOf(tenantId: string, eventId: string): Promise<PublishedKey[]> {
    return this.keys.all(tenantId, eventId);
  }

  verify(tenantId: string, code: unknown): Promise<CodeVerdict> {
    return this.keys.verify(tenantId, code);
  }

  private async copies(tenantId: string, eventIds: string[]) {
    const rows = await this.eventCopies.datesOf(tenantId, eventIds);
    return new Map(rows.map((r) => [r.eventId, r]));
  }

  /** The events' titles (from this service's copies; missing: not copied yet). */
  async titlesOf(tenantId: string, tickets: { eventId: string }[]): Promise<Map<string, string>> {
    const copies = await this.copies(tenantId, [...new Set(tickets.map((t) => t.eventId))]);
    return new Map([...copies.values()].map((c) => [c.eventId, c.title]));
  }

  /**
   * The code of each valid ticket of an event with a key, by ticket id, signed with the event's
   * current key (the keys and the copies read once for all events).
   */
  async codesOf(
    tickets: { id: string; tenantId: string; eventId: string; status: string }[],
  ): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    const valid = tickets.filter((t) => t.status === 'valid');
    if (!valid.length) return out;
    const tenantId = valid[0].tenantId;
    const eventIds = [...new Set(valid.map((t) => t.eventId))];
    const copies = await this.copies(tenantId, eventIds);
    const keys = await this.keys.currentOf(tenantId, eventIds);
    for (const t of valid) {
      const key = keys.get(t.eventId);
      // no key: a ticket of an event that never had a ticket type (not issued by this service)
      if (!key) continue;
      out.set(
        t.id,
        SigningKeys.sign(key, {
          ticketId: t.id,
          eventId: t.eventId,
          validUntil: validUntilOf(copies.get(t.eventId) ?? null),
        }),
      );
    }
    return out;
  }

  /** The code of one ticket (export: rows of one event, key read once). */
  static codeWith(key: SigningKey, validUntil: number, ticketId: string, eventId: string) {
    return SigningKeys.sign(key, { ticketId, eventId, validUntil });
  }
}
