import { Inject, Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { MessageBus, Subjects, VerifyApiKeyReply, VerifyApiKeyRequest } from '@crm/messaging';
import { ApiKeyCache } from './api-key.cache';

export const API_KEY_CACHE = Symbol('API_KEY_CACHE');
export const KEY_VERIFIER = Symbol('KEY_VERIFIER');

/** Answers whether a presented API key is valid, for which tenant, with which modules. */
export interface KeyVerifier {
  verify(key: string): Promise<VerifyApiKeyReply>;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

/** Asks tenant-info over NATS (only the key's hash travels), through the cache. */
@Injectable()
export class ApiKeyVerifier implements KeyVerifier {
  /** Concurrent requests with the same key share one NATS request (of the same generation). */
  private readonly inFlight = new Map<
    string,
    { generation: number; reply: Promise<VerifyApiKeyReply> }
  >();

  constructor(
    private readonly bus: MessageBus,
    @Inject(API_KEY_CACHE) private readonly cache: ApiKeyCache,
  ) {}

  verify(key: string): Promise<VerifyApiKeyReply> {
    const keyHash = hashApiKey(key);
    const cached = this.cache.get(keyHash);
    if (cached) return Promise.resolve(cached);
    const generation = this.cache.currentGeneration;
    const pending = this.inFlight.get(keyHash);
    // A request sent before an access change may carry the old answer: do not join it.
    if (pending && pending.generation === generation) return pending.reply;
    const entry = {
      generation,
      reply: this.ask(keyHash, generation).finally(() => {
        if (this.inFlight.get(keyHash) === entry) this.inFlight.delete(keyHash);
      }),
    };
    this.inFlight.set(keyHash, entry);
    return entry.reply;
  }

  private async ask(keyHash: string, generation: number): Promise<VerifyApiKeyReply> {
    // A 503 (tenant-info silent) is thrown and not cached: the next request asks again.
    const reply = await this.bus.request<VerifyApiKeyReply>(Subjects.tenantInfo.verifyApiKey, {
      keyHash,
    } satisfies VerifyApiKeyRequest);
    const normalized: VerifyApiKeyReply = reply?.valid
      ? { valid: true, keyId: reply.keyId, tenantId: reply.tenantId, modules: reply.modules ?? [] }
      : { valid: false };
    this.cache.set(keyHash, normalized, generation);
    return normalized;
  }
}
