import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import {
  connect,
  DiscardPolicy,
  type JetStreamClient,
  type JetStreamManager,
  type NatsConnection,
  RetentionPolicy,
  StorageType,
} from 'nats';
import { AppException, ErrorCode } from '@crm/errors';
import { GATEWAY_CONFIG, type GatewayConfig } from '../config';

/**
 * The JetStream stream every gateway replica shares: one message per key (the record), on the
 * subject IDEMPOTENCY_SUBJECT.<key>. Not a KV bucket: a bucket's subjects (`$KV.<bucket>.>`)
 * overlap the event stream's three-token patterns (`*.*.created`), which NATS refuses; four
 * tokens and more do not.
 */
export const IDEMPOTENCY_STREAM = 'CRM_IDEMPOTENCY';
export const IDEMPOTENCY_SUBJECT = 'crm.gateway.idempotency';
/** How long a key answers a retry (the bucket's max age). */
export const IDEMPOTENCY_TTL_MS = 24 * 3600 * 1000;

/** What is kept per tenant and Idempotency-Key. */
export interface IdempotencyRecord {
  /** SHA-256 of method, path, content type and body: another request with the key is a 409. */
  fingerprint: string;
  /** released: the call failed and the key is free again. */
  state: 'pending' | 'done' | 'released';
  /** pending: until when the gateway that took the call may still answer it. */
  leaseUntil?: number;
  status?: number;
  headers?: Record<string, string | string[]>;
  /** The answer's body (base64); absent when it was too large to keep. */
  body?: string;
}

export type Claim =
  | { kind: 'claimed'; revision: number }
  | { kind: 'found'; record: IdempotencyRecord; revision: number };

/** JetStream's "wrong last sequence": the key exists (create) or changed (update). */
const WRONG_LAST_SEQUENCE = 10071;
/** JetStream's "no message found": no record for the key. */
const NO_MESSAGE = 10037;
const jsCode = (err: unknown) =>
  (err as { api_error?: { err_code?: number } })?.api_error?.err_code;
const lostRace = (err: unknown) =>
  jsCode(err) === WRONG_LAST_SEQUENCE || /wrong last sequence/i.test((err as Error)?.message ?? '');
const absent = (err: unknown) =>
  jsCode(err) === NO_MESSAGE || /no message found/i.test((err as Error)?.message ?? '');
/** A released key: its record says so (a newer message replaces it, as a create would). */
const RELEASED = 'released';

/**
 * The Idempotency-Key records in NATS JetStream: shared by every gateway replica, kept 24 h,
 * written with compare-and-set (a publish that expects the key's last sequence: none to create,
 * the one read to replace) so that one call per key wins. Connected on first use: a gateway whose
 * callers never send the header never connects. A store that cannot be reached is a 503 (the
 * guarantee cannot be given), not a call made without it.
 */
@Injectable()
export class IdempotencyStore implements OnApplicationShutdown {
  private readonly logger = new Logger(IdempotencyStore.name);
  private nc: NatsConnection | null = null;
  private opened: Promise<{ js: JetStreamClient; jsm: JetStreamManager }> | null = null;

  constructor(@Inject(GATEWAY_CONFIG) private readonly config: GatewayConfig) {}

  /** Creates the record, or finds the one that is there. */
  async claim(key: string, record: IdempotencyRecord): Promise<Claim> {
    const { js, jsm } = await this.stream();
    const subject = `${IDEMPOTENCY_SUBJECT}.${key}`;
    for (let attempt = 0; attempt < 3; attempt++) {
      const found = await jsm.streams
        .getMessage(IDEMPOTENCY_STREAM, { last_by_subj: subject })
        .catch((err: unknown) => {
          if (absent(err)) return null;
          throw this.unavailable(err);
        });
      const current = found ? decode(found.data) : null;
      if (found && current && current.state !== RELEASED)
        return { kind: 'found', record: current, revision: found.seq };
      try {
        const ack = await js.publish(subject, encode(record), {
          expect: { lastSubjectSequence: found?.seq ?? 0 },
        });
        return { kind: 'claimed', revision: ack.seq };
      } catch (err) {
        // another call created (or released) it meanwhile: read it again
        if (!lostRace(err)) throw this.unavailable(err);
      }
    }
    throw this.unavailable(new Error(`no stable record for ${key}`));
  }

  /** Replaces the record if it is still at `revision`; the new revision, or null if it moved. */
  async replace(key: string, record: IdempotencyRecord, revision: number): Promise<number | null> {
    const { js } = await this.stream();
    try {
      const ack = await js.publish(`${IDEMPOTENCY_SUBJECT}.${key}`, encode(record), {
        expect: { lastSubjectSequence: revision },
      });
      return ack.seq;
    } catch (err) {
      if (lostRace(err)) return null;
      throw this.unavailable(err);
    }
  }

  /** Frees the key if its record is still at `revision` (a failed call may be tried again). */
  async release(key: string, revision: number): Promise<void> {
    await this.replace(key, { fingerprint: '', state: RELEASED }, revision);
  }

  async onApplicationShutdown(): Promise<void> {
    await this.nc?.close().catch(() => undefined);
  }

  private stream(): Promise<{ js: JetStreamClient; jsm: JetStreamManager }> {
    this.opened ??= this.open().catch((err: unknown) => {
      this.opened = null;
      throw this.unavailable(err);
    });
    return this.opened;
  }

  private async open(): Promise<{ js: JetStreamClient; jsm: JetStreamManager }> {
    // once connected, the client reconnects by itself; a first connection that fails is
    // tried again by the next call
    this.nc ??= await connect({
      servers: this.config.NATS_URL.split(','),
      name: 'gateway-idempotency',
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
    });
    const jsm = await this.nc.jetstreamManager();
    const config = {
      name: IDEMPOTENCY_STREAM,
      subjects: [`${IDEMPOTENCY_SUBJECT}.>`],
      retention: RetentionPolicy.Limits,
      storage: StorageType.File,
      discard: DiscardPolicy.Old,
      max_msgs_per_subject: 1,
      max_age: IDEMPOTENCY_TTL_MS * 1_000_000,
    };
    // every replica creates it on first use; one that exists already is taken as it is
    await jsm.streams.add(config).catch(async (err: unknown) => {
      await jsm.streams.info(IDEMPOTENCY_STREAM).catch(() => {
        throw err;
      });
    });
    return { js: this.nc.jetstream(), jsm };
  }

  private unavailable(err: unknown): AppException {
    if (err instanceof AppException) return err;
    this.logger.warn(`Idempotency-Key store: ${(err as Error)?.message ?? String(err)}`);
    return new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'gateway.idempotency.unavailable');
  }
}

const encode = (record: IdempotencyRecord) => Buffer.from(JSON.stringify(record));
const decode = (value: Uint8Array) =>
  JSON.parse(Buffer.from(value).toString('utf8')) as IdempotencyRecord;
