import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  KeyObject,
  randomBytes,
} from 'node:crypto';
import { SecretBox } from '@crm/secrets';
import {
  parseTicketCode,
  ParsedTicketCode,
  signTicketCode,
  TicketCodeClaims,
  verifyTicketCode,
} from './ticket-code';
import { KeyWriter, SigningKeysRepository } from './signing-keys.repository';

export interface SigningKey {
  keyId: string;
  privateKey: KeyObject;
  publicKey: KeyObject;
  /** raw 32 bytes, base64url (the JWK `x`) */
  publicKeyRaw: string;
  publicKeyPem: string;
}

/** Keys kept in memory; a key never changes once written, so a cached one is never stale. */
const CACHE_MAX = 5000;
/** Keys sealed anew per query at start. */
const RESEAL_BATCH = 200;

/**
 * The Ed25519 key pair of each event (EventSigningKey). Written only by writes: with the event's
 * first ticket type (K1, in its transaction) and with the ticket types copied to a duplicated
 * event (E9), so every event that can have tickets has its key and a read (a ticket's code, the
 * ET13 key, an export, a PDF) never writes; an event without a key has no codes (null).
 * Events whose ticket types predate this get their key once at startup (backfill), not on a read.
 * Concurrent creations all INSERT ... ON CONFLICT DO NOTHING, so they agree on the one key written.
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

  private remember(k: string, key: SigningKey): SigningKey {
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(k, key);
    return key;
  }

  private load(row: { keyId: string; publicKey: string; privateKey: string }): SigningKey {
    const privateKey = createPrivateKey(this.box.open(row.privateKey));
    const publicKey = createPublicKey(row.publicKey);
    return {
      keyId: row.keyId,
      privateKey,
      publicKey,
      publicKeyRaw: publicKey.export({ format: 'jwk' }).x!,
      publicKeyPem: row.publicKey,
    };
  }

  /** The event's key, if one was created (reads never create one). */
  async find(tenantId: string, eventId: string): Promise<SigningKey | null> {
    const k = `${tenantId}\u0000${eventId}`;
    const hit = this.cache.get(k);
    if (hit) return hit;
    const row = await this.repo.find(tenantId, eventId);
    return row ? this.remember(k, this.load(row)) : null;
  }

  /**
   * Creates the event's key unless it has one, in the caller's transaction (a ticket type and
   * its event's key are written together or not at all).
   */
  ensure(tx: KeyWriter, tenantId: string, eventId: string): Promise<void> {
    return SigningKeysRepository.insertIfMissing(tx, this.generate(tenantId, eventId));
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
    const missing = await this.repo.eventsWithoutKey();
    for (const m of missing) await this.repo.insert(this.generate(m.tenantId, m.eventId));
    if (missing.length) this.logger.log(`signing keys created for ${missing.length} event(s)`);
    const resealed = await this.resealAll();
    if (resealed)
      this.logger.log(`${resealed} signing key(s) sealed with key ${this.box.currentKeyId}`);
  }

  /**
   * Seals every stored private key that is not sealed with the current key of SECRETS_KEY; how
   * many it rewrote. Throws SecretOpenError naming the key id of one it cannot open.
   */
  async resealAll(): Promise<number> {
    let rewritten = 0;
    let after: { tenantId: string; eventId: string } | null = null;
    for (;;) {
      const rows = await this.repo.keysToReseal(this.box.currentPrefix, after, RESEAL_BATCH);
      for (const row of rows)
        if (await this.repo.replacePrivateKey(row, row.privateKey, this.box.reseal(row.privateKey)))
          rewritten++;
      if (rows.length < RESEAL_BATCH) return rewritten;
      after = rows[rows.length - 1]!;
    }
  }

  /** The signed code of a ticket (Ed25519 is deterministic: the same claims give the same code). */
  static sign(key: SigningKey, claims: TicketCodeClaims): string {
    return signTicketCode(key.privateKey, key.keyId, claims);
  }

  /**
   * The claims of a code signed by the tenant's key of the event it names; null for anything
   * else (malformed, tampered, another tenant's or an unknown key).
   */
  async verify(tenantId: string, code: unknown): Promise<ParsedTicketCode | null> {
    const parsed = parseTicketCode(code);
    if (!parsed) return null;
    const key = await this.find(tenantId, parsed.eventId);
    if (!key || key.keyId !== parsed.keyId) return null;
    return verifyTicketCode(key.publicKey, parsed) ? parsed : null;
  }
}
