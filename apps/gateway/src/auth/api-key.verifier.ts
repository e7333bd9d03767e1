import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { AppException, ErrorCode } from '@crm/errors';
import { MessageBus, Subjects, VerifyApiKeyReply, VerifyApiKeyRequest } from '@crm/messaging';
import { ApiKeyCache } from './api-key.cache';

export const API_KEY_CACHE = Symbol('API_KEY_CACHE');
export const KEY_VERIFIER = Symbol('KEY_VERIFIER');
/** How long after a failed verification stale answers are served without asking first. */
export const DEGRADED_WINDOW_MS = Symbol('DEGRADED_WINDOW_MS');

/** Answers whether a presented API key is valid, for which tenant, with which modules. */
export interface KeyVerifier {
  verify(key: string): Promise<VerifyApiKeyReply>;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

const unavailable = (err: unknown) =>
  err instanceof AppException && err.code === ErrorCode.SERVICE_UNAVAILABLE;

/**
 * Asks tenant-info over NATS (only the key's hash travels), through the cache.
 *
 * Stale-if-error: when tenant-info cannot be asked (NATS down, tenant-info silent), a key verified
 * valid within the cache's stale window is accepted. After one failure the verifier is
 * "degraded" for a few seconds: stale answers are served at once and the question is asked in
 * the background, so an outage costs one request the NATS timeout, not every request.
 */
@Injectable()
export class ApiKeyVerifier implements KeyVerifier {
  private readonly logger = new Logger('ApiKeyVerifier');
  /** Concurrent requests with the same key share one NATS request (of the same generation). */
  private readonly inFlight = new Map<
    string,
    { generation: number; reply: Promise<VerifyApiKeyReply> }
  >();
  private degradedUntil = 0;

  constructor(
    private readonly bus: MessageBus,
    @Inject(API_KEY_CACHE) private readonly cache: ApiKeyCache,
    @Optional() @Inject(DEGRADED_WINDOW_MS) private readonly degradedWindowMs: number = 5000,
  ) {}

  verify(key: string): Promise<VerifyApiKeyReply> {
    const keyHash = hashApiKey(key);
    const cached = this.cache.get(keyHash);
    if (cached) return Promise.resolve(cached);
    if (this.degradedUntil > Date.now()) {
      const stale = this.cache.getStale(keyHash);
      if (stale) {
        void this.ask(keyHash).catch(() => undefined);
        return Promise.resolve(stale);
      }
    }
    return this.ask(keyHash).catch((err: unknown) => {
      const stale = unavailable(err) ? this.cache.getStale(keyHash) : undefined;
      if (!stale) throw err;
      return stale;
    });
  }

  /** One NATS question per key and generation at a time. */
  private ask(keyHash: string): Promise<VerifyApiKeyReply> {
    const generation = this.cache.currentGeneration;
    const pending = this.inFlight.get(keyHash);
    // A request sent before an access change may carry the old answer: do not join it.
    if (pending && pending.generation === generation) return pending.reply;
    const entry = {
      generation,
      reply: this.request(keyHash, generation).finally(() => {
        if (this.inFlight.get(keyHash) === entry) this.inFlight.delete(keyHash);
      }),
    };
    this.inFlight.set(keyHash, entry);
    return entry.reply;
  }

  private async request(keyHash: string, generation: number): Promise<VerifyApiKeyReply> {
    let reply: VerifyApiKeyReply;
    try {
      reply = await this.bus.request<VerifyApiKeyReply>(Subjects.tenantInfo.verifyApiKey, {
        keyHash,
      } satisfies VerifyApiKeyRequest);
    } catch (err) {
      // A 503 is not cached: the next request (or the background one) asks again.
      if (unavailable(err)) this.degrade();
      throw err;
    }
    if (this.degradedUntil) {
      this.degradedUntil = 0;
      this.logger.log('tenant-info answers again: keys are verified as usual');
    }
    const normalized: VerifyApiKeyReply = reply?.valid
      ? {
          valid: true,
          keyId: reply.keyId,
          tenantId: reply.tenantId,
          modules: reply.modules ?? [],
          // Absent from an older tenant-info: left absent, the caller's rule decides (all scopes).
          ...(reply.scopes ? { scopes: reply.scopes } : {}),
          ...(reply.expiresAt ? { expiresAt: reply.expiresAt } : {}),
        }
      : reply?.expiresAt
        ? { valid: false, expiresAt: reply.expiresAt }
        : { valid: false };
    this.cache.set(keyHash, normalized, generation);
    return normalized;
  }

  private degrade(): void {
    if (!this.degradedUntil)
      this.logger.warn(
        'tenant-info cannot be asked: accepting keys verified recently (stale-if-error)',
      );
    this.degradedUntil = Date.now() + this.degradedWindowMs;
  }
}
