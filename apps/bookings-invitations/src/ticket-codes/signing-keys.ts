import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  KeyObject,
  randomBytes,
} from 'node:crypto';
import { acrossTenants, asTenant } from '@crm/request-context';
import { SecretBox } from '@crm/secrets';
import {
  eventEndOf,
  parseTicketCode,
  ParsedTicketCode,
  signTicketCode,
  TicketCodeClaims,
  verifyTicketCode,
} from './ticket-code';
import { KeyRow, KeyWriter, SigningKeysRepository } from './signing-keys.repository';

export interface SigningKey {
  keyId: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** raw 32 bytes, base64url (the JWK `x`) */
  publicKeyRaw: string;
  publicKeyPem: string;
}

/** A key of an event as ET13 lists it (public parts only). */
export interface PublishedKey {
  keyId: string;
  /** raw 32 bytes, base64url (the JWK `x`) */
  publicKeyRaw: string;
  publicKeyPem: string;
  dateCreated: Date;
  /** null: the current key */
  retiredAt: Date | null;
}

/** Why a code is refused: not a code of the tenant's keys, or signed by a key no longer accepted. */
export type CodeRefusal = 'invalidCode' | 'retiredKey';

export type CodeVerdict =
  { claims: ParsedTicketCode; refusal?: undefined } | { claims?: undefined; refusal: CodeRefusal };

/** Loaded key pairs kept in memory, by event and keyId: a key's pair never changes once written. */
const CACHE_MAX = 5000;
/** Keys sealed anew per query at start. */
const RESEAL_BATCH = 200;

/**
 * The Ed25519 key pairs of each event (EventSigningKey). The event's first key is written only by
 * writes: with its first ticket type (K1, in its transaction) and with the ticket types copied to
 * a duplicated event (E9), so every event that can have tickets has its key and a read (a
 * ticket's code, the ET13 keys, an export, a PDF) never writes; an event without a key has no
 * codes (null). Events whose ticket types predate this get their key once at startup (backfill),
 * not on a read. Concurrent creations all INSERT ... ON CONFLICT DO NOTHING, so they agree on one.
 *
 * Rotation (ET14) retires the current key and writes the next: codes are signed with the current
 * key, read from the database on every signing (another replica may have rotated; the pair itself
 * comes from the cache), and a code of a retired key is accepted until the event has ended
 * (eventEndOf: its end, from this service's copy of the event).
 *
 * The private key is stored sealed with the first key of SECRETS_KEY (SecretBox, @crm/secrets),
 * opened when a key is loaded. At start, after the backfill, every process seals anew what is not
 * sealed with the current key (keys written before sealing existed, and keys sealed with an older
 * key after a rotation of SECRETS_KEY): idempotent, safe with replicas starting at once; a key
 * sealed with a key id SECRETS_KEY lacks stops the start, naming the id.
 */
@Injectable()
export class SigningKeys implements OnApplicationBootstrap {
  private readonly logger = new Logger(SigningKeys.name);
  private readonly cache = new Map<string, SigningKey>();

  constructor(
    private readonly repo: SigningKeysRepository,
    private readonly box: SecretBox,
  ) {}

  /** The key pair of a row, opened once per process (the unsealing is the costly part). */
  private load(tenantId: string, row: KeyRow): SigningKey {
    const k = `${tenantId}\u0000${row.eventId}\u0000${row.keyId}`;
    const hit = this.cache.get(k);
    if (hit) return hit;
    const privateKey = createPrivateKey(this.box.open(row.privateKey));
    const publicKey = createPublicKey(row.publicKey);
    const key: SigningKey = {
      keyId: row.keyId,
      privateKey,
      publicKey,
      publicKeyRaw: publicKey.export({ format: 'jwk' }).x!,
      publicKeyPem: row.publicKey,
    };
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(k, key);
    return key;
  }

  /** The event's current key, if one was created (reads never create one). */
  async current(tenantId: string, eventId: string): Promise<SigningKey | null> {
    return (await this.currentOf(tenantId, [eventId])).get(eventId) ?? null;
  }

  /** The current key of each event that has one (one query for all). */
  async currentOf(tenantId: string, eventIds: string[]): Promise<Map<string, SigningKey>> {
    const rows = await this.repo.current(tenantId, eventIds);
    return new Map(rows.map((r) => [r.eventId, this.load(tenantId, r)]));
  }

  /** Every key of the event, the current one first, then the retired ones, latest first. */
  async all(tenantId: string, eventId: string): Promise<PublishedKey[]> {
    const rows = await this.repo.all(tenantId, eventId);
    return rows.map((r) => ({
      keyId: r.keyId,
      publicKeyRaw: createPublicKey(r.publicKey).export({ format: 'jwk' }).x!,
      publicKeyPem: r.publicKey,
      dateCreated: r.dateCreated,
      retiredAt: r.retiredAt,
    }));
  }

  /**
   * Creates the event's key unless it has one, in the caller's transaction (a ticket type and
   * its event's key are written together or not at all).
   */
  ensure(tx: KeyWriter, tenantId: string, eventId: string): Promise<void> {
    return SigningKeysRepository.insertIfMissing(tx, this.generate(tenantId, eventId));
  }

  /**
   * Retires the event's current key and makes a new one current (the event's first when it has
   * none); concurrent rotations of one event run one after the other, each leaving one current key.
   */
  async rotate(
    tenantId: string,
    eventId: string,
  ): Promise<{ keyId: string; retiredKeyId: string | null; at: Date }> {
    const next = this.generate(tenantId, eventId);
    const done = await this.repo.rotate(next);
    return { keyId: next.keyId, ...done };
  }

  /** A new key pair for the event, as stored (PEM, the private key sealed). */
  private generate(tenantId: string, eventId: string) {
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    return {
      tenantId,
      eventId,
      keyId: randomBytes(6).toString('base64url'),
      publicKey: publicKey.export({ type: 'spki', format: 'pem' }) as string,
      privateKey: this.box.seal(privateKey.export({ type: 'pkcs8', format: 'pem' }) as string),
    };
  }

  /**
   * Backfill for events whose ticket types were created before keys were written with the first
   * type: their keys are created once here, so reads stay free of writes. Ticket types only (a
   * small table; every ticket with a code has its type, which cannot be deleted under it).
   */
  async onApplicationBootstrap(): Promise<void> {
    // Each scope's callback is async: a Prisma query runs when it is awaited, so it is awaited
    // inside the scope it is meant for.
    const missing = await acrossTenants('start-up backfill of signing keys', async () =>
      this.repo.eventsWithoutKey(),
    );
    for (const m of missing)
      await asTenant(m.tenantId, async () =>
        this.repo.insert(this.generate(m.tenantId, m.eventId)),
      );
    if (missing.length) this.logger.log(`signing keys created for ${missing.length} event(s)`);
    const resealed = await this.resealAll();
    if (resealed)
      this.logger.log(`${resealed} signing key(s) sealed with key ${this.box.currentKeyId}`);
  }

  /**
   * Seals every stored private key that is not sealed with the current key of SECRETS_KEY; how
   * many it rewrote. Throws SecretOpenError naming the key id of one it cannot open. The keys are
   * found across tenants (start-up re-sealing covers every tenant), each rewritten as its tenant.
   */
  async resealAll(): Promise<number> {
    let rewritten = 0;
    let after: { tenantId: string; eventId: string; keyId: string } | null = null;
    for (;;) {
      const rows = await acrossTenants('start-up re-sealing of signing keys', async () =>
        this.repo.keysToReseal(this.box.currentPrefix, after, RESEAL_BATCH),
      );
      for (const row of rows) {
        const sealed = this.box.reseal(row.privateKey);
        if (
          await asTenant(row.tenantId, async () =>
            this.repo.replacePrivateKey(row, row.privateKey, sealed),
          )
        )
          rewritten++;
      }
      if (rows.length < RESEAL_BATCH) return rewritten;
      after = rows[rows.length - 1]!;
    }
  }

  /** The signed code of a ticket (Ed25519 is deterministic: the same claims give the same code). */
  static sign(key: SigningKey, claims: TicketCodeClaims): string {
    return signTicketCode(key.privateKey, key.keyId, claims);
  }

  /**
   * The claims of a code signed by the tenant's key of the event it names: the current key, or
   * a retired one while the event has not ended (`now`); else why it is refused (malformed,
   * tampered, another tenant's or an unknown key: invalidCode; a retired key after the event's
   * end: retiredKey).
   */
  async verify(tenantId: string, code: unknown, now = new Date()): Promise<CodeVerdict> {
    const parsed = parseTicketCode(code);
    if (!parsed) return { refusal: 'invalidCode' };
    const key = await this.repo.forVerification(tenantId, parsed.eventId, parsed.keyId);
    if (!key || !verifyTicketCode(createPublicKey(key.publicKey), parsed)) {
      return { refusal: 'invalidCode' };
    }
    if (key.retiredAt) {
      const end = eventEndOf(key);
      if (end && end.getTime() <= now.getTime()) return { refusal: 'retiredKey' };
    }
    return { claims: parsed };
  }
}
