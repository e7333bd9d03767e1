import type { Logger } from '@nestjs/common';
import { AppException, ErrorCode, RpcErrorPayload, toAppException } from '@crm/errors';
import type { SaleOutcome } from './booking-batch-writer';

/**
 * A sale's outcome as it leaves the writer for another replica (over NATS) or for the API's event
 * loop (from the writer's thread): a refusal's AppException as its RPC payload, which keeps its
 * code, message key and field problems; the rest as it is.
 */
export type WireOutcome =
  Exclude<SaleOutcome, { kind: 'refused' }> | { kind: 'refused'; error: RpcErrorPayload };
/** An outcome, or the error the write failed with (as its answer: a 503 for a database outage). */
export type WireReply = { outcome: WireOutcome } | { failed: RpcErrorPayload };

/** What the reader of a reply gets back: the outcome, or the error to throw. */
export type SaleReply = { outcome: SaleOutcome } | { error: AppException };

export function toWire(outcome: SaleOutcome): WireOutcome {
  return outcome.kind === 'refused' ? { kind: 'refused', error: outcome.error.toRpc() } : outcome;
}

export function fromWire(o: WireOutcome): SaleOutcome {
  return o.kind === 'refused' ? { kind: 'refused', error: AppException.fromRpc(o.error) } : o;
}

/** A failed write as its answer (an unexpected error is logged here, where its stack is). */
export function failedReply(err: unknown, logger: Logger): { failed: RpcErrorPayload } {
  return { failed: toAppException(err, logger).toRpc() };
}

export function readReply(reply: WireReply): SaleReply {
  return 'failed' in reply
    ? { error: AppException.fromRpc(reply.failed) }
    : { outcome: fromWire(reply.outcome) };
}

/** The answer to a sale whose writer stopped answering: it may have been written. */
export function unanswered(): AppException {
  return new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.unanswered', {
    service: 'bookings-invitations',
  });
}
