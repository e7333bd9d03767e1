import { Injectable } from '@nestjs/common';
import {
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  KeyObject,
  randomBytes,
} from 'node:crypto';
import { PrismaService } from '../database/prisma.service';
import {
  parseTicketCode,
  ParsedTicketCode,
  signTicketCode,
  TicketCodeClaims,
  verifyTicketCode,
} from './ticket-code';

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

/**
 * The Ed25519 key pair of each event (EventSigningKey), created on first need. Concurrent first
 * uses all INSERT ... ON CONFLICT DO NOTHING and then read, so they agree on the one key written.
 */
@Injectable()
export class SigningKeys {
  private readonly cache = new Map<string, SigningKey>();

  constructor(private readonly prisma: PrismaService) {}

  private remember(k: string, key: SigningKey): SigningKey {
    if (this.cache.size >= CACHE_MAX) this.cache.delete(this.cache.keys().next().value!);
    this.cache.set(k, key);
    return key;
  }

  private static load(row: { keyId: string; publicKey: string; privateKey: string }): SigningKey {
    const privateKey = createPrivateKey(row.privateKey);
    const publicKey = createPublicKey(row.publicKey);
    return {
      keyId: row.keyId,
      privateKey,
      publicKey,
      publicKeyRaw: publicKey.export({ format: 'jwk' }).x!,
      publicKeyPem: row.publicKey,
    };
  }

  /** The event's key, if one was ever created (check-in never creates one). */
  async find(tenantId: string, eventId: string): Promise<SigningKey | null> {
    const k = `${tenantId}\u0000${eventId}`;
    const hit = this.cache.get(k);
    if (hit) return hit;
    const row = await this.prisma.eventSigningKey.findUnique({
      where: { tenantId_eventId: { tenantId, eventId } },
    });
    return row ? this.remember(k, SigningKeys.load(row)) : null;
  }

  /** The event's key, created when it has none yet. */
  async require(tenantId: string, eventId: string): Promise<SigningKey> {
    const found = await this.find(tenantId, eventId);
    if (found) return found;
    const { publicKey, privateKey } = generateKeyPairSync('ed25519');
    await this.prisma.$executeRaw`
      INSERT INTO "EventSigningKey" ("tenantId", "eventId", "keyId", "publicKey", "privateKey")
      VALUES (${tenantId}, ${eventId}::uuid, ${randomBytes(6).toString('base64url')},
        ${publicKey.export({ type: 'spki', format: 'pem' }) as string},
        ${privateKey.export({ type: 'pkcs8', format: 'pem' }) as string})
      ON CONFLICT ("tenantId", "eventId") DO NOTHING`;
    const key = await this.find(tenantId, eventId);
    if (!key) throw new Error(`signing key of event ${eventId} vanished after its insert`);
    return key;
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
