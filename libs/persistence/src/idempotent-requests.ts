import type pg from 'pg';
import { acrossTenants, tenantScope } from '@crm/request-context';
import type { KeptAnswer, KeyedPostStore } from '@crm/service-kit';
import { scopeKey } from './pg-pool';
import { inRequestTransaction, RequestTransaction } from './request-transaction';

/** How long a service keeps the answer of a keyed POST (the gateway keeps its copy as long). */
export const IDEMPOTENT_ANSWER_TTL_HOURS = 24;
/** Answers up to this size are kept (larger ones: the status only, a repeat learns it by a 409). */
export const KEPT_ANSWER_BODY_BYTES = 512 * 1024;

/** What begin() found: the request runs (in `tx`), or a call with the key was answered before. */
export type IdempotentStart =
  { kind: 'run'; tx: RequestTransaction } | { kind: 'answered'; answer: KeptAnswer };

/**
 * The table `IdempotentRequest` of a service's database: the keyed POSTs it carried out, by
 * tenant and Idempotency-Key, with their answers. Written in the request's own transaction, so a
 * row exists exactly when the request's changes were committed.
 */
class IdempotentRequestTable {
  /**
   * Begins the request's transaction and takes the key in it, in one round trip (literals: a
   * simple query carries no parameters); false when a call with the key committed first (the
   * insert waits for one in progress, on the unique index).
   */
  async beginAndClaim(tx: RequestTransaction, claim: Claim): Promise<boolean> {
    const lit = (v: string) => tx.client.escapeLiteral(v);
    const results = (await tx.run(
      `BEGIN; INSERT INTO "IdempotentRequest" ("tenantId", key, fingerprint)
       VALUES (${lit(claim.tenantId)}, ${lit(claim.key)}, ${lit(claim.fingerprint)})
       ON CONFLICT DO NOTHING`,
    )) as unknown as pg.QueryResult[];
    return results[1].rowCount === 1;
  }

  async answered(tx: RequestTransaction, tenantId: string, key: string): Promise<KeptAnswer> {
    const found = await tx.run(
      `SELECT fingerprint, status, headers, body FROM "IdempotentRequest"
        WHERE "tenantId" = $1 AND key = $2`,
      [tenantId, key],
    );
    const row = found.rows[0] as KeptAnswer;
    return { ...row, headers: row.headers ?? {} };
  }

  /**
   * Writes the answer into the key's row and commits, in one round trip; what the COMMIT said:
   * `COMMIT`, or `ROLLBACK` for a transaction that an error had aborted. (A failing UPDATE
   * rejects, and the COMMIT after it is not run.)
   */
  async keepAnswerAndCommit(
    tx: RequestTransaction,
    claim: Claim,
    answer: KeptAnswer,
  ): Promise<string> {
    const lit = (v: string) => tx.client.escapeLiteral(v);
    const body = answer.body ? `'\\x${answer.body.toString('hex')}'::bytea` : 'NULL';
    const results = (await tx.run(
      `UPDATE "IdempotentRequest"
          SET status = ${Number(answer.status)}, headers = ${lit(JSON.stringify(answer.headers))}::jsonb,
              body = ${body}
        WHERE "tenantId" = ${lit(claim.tenantId)} AND key = ${lit(claim.key)}; COMMIT`,
    )) as unknown as pg.QueryResult[];
    return results[results.length - 1].command;
  }

  /** The key's row with its answer, on its own (a refusal of a request that wrote nothing). */
  async keepAlone(pool: pg.Pool, claim: Claim, answer: KeptAnswer): Promise<void> {
    await pool.query(
      `INSERT INTO "IdempotentRequest" ("tenantId", key, fingerprint, status, headers, body)
       VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT DO NOTHING`,
      [
        claim.tenantId,
        claim.key,
        claim.fingerprint,
        answer.status,
        JSON.stringify(answer.headers),
        answer.body,
      ],
    );
  }

  async deleteOlderThan(pool: pg.Pool, before: Date): Promise<number> {
    const deleted = await pool.query(`DELETE FROM "IdempotentRequest" WHERE "dateCreated" < $1`, [
      before,
    ]);
    return deleted.rowCount ?? 0;
  }
}

/** COMMIT of a transaction that an error had aborted: PostgreSQL rolled it back instead. */
class AbortedRequest extends Error {
  constructor() {
    super('the request transaction was rolled back: a statement of it had failed');
  }
}

/** A statement refused because an earlier one had aborted the transaction (25P02). */
const isAborted = (err: unknown) => (err as { code?: string })?.code === '25P02';

interface Claim {
  tenantId: string;
  key: string;
  fingerprint: string;
}

/**
 * Keyed POSTs carried out exactly once by the service, whatever happens between it and the
 * client (the gateway keeps answers too, but a gateway killed after forwarding, or a service
 * killed after committing, left the client's repeat to run the request again: a person created
 * twice). The request runs in one transaction with the row that records its key; its answer is
 * written into that row before the commit. A repeat finds the row, and the answer, or waits for
 * the call in progress to end (the key's unique index); a call that failed left no row.
 */
export class IdempotentRequests implements KeyedPostStore<RequestTransaction> {
  private readonly table = new IdempotentRequestTable();

  constructor(private readonly pool: pg.Pool) {}

  /** The key each running request took. */
  private readonly claims = new WeakMap<RequestTransaction, Claim>();

  /** Opens the request's transaction and takes the key, in the caller's tenant scope. */
  async begin(tenantId: string, key: string, fingerprint: string): Promise<IdempotentStart> {
    const client = await this.pool.connect();
    const tx = new RequestTransaction(this.pool, client, scopeKey(tenantScope()));
    const claim = { tenantId, key, fingerprint };
    try {
      if (await this.table.beginAndClaim(tx, claim)) {
        this.claims.set(tx, claim);
        return { kind: 'run', tx };
      }
      const answer = await this.table.answered(tx, tenantId, key);
      await this.end(tx, 'ROLLBACK');
      return { kind: 'answered', answer };
    } catch (err) {
      await this.end(tx, 'ROLLBACK');
      throw err;
    }
  }

  inside(tx: RequestTransaction, fn: () => void): void {
    inRequestTransaction(tx, fn);
  }

  /**
   * Writes the answer with the request's changes and commits them; rejects when the commit did
   * not happen (nothing of the request is kept then, and its answer must not be given). A refusal
   * (below 500) of a request whose transaction an error aborted (a failed read, caught and
   * answered as a 4xx) wrote nothing: its answer is kept on its own.
   */
  async commit(tx: RequestTransaction, given: Omit<KeptAnswer, 'fingerprint'>): Promise<void> {
    const claim = this.claims.get(tx);
    if (!claim) throw new Error('not a request begun here');
    const body = given.body && given.body.length <= KEPT_ANSWER_BODY_BYTES ? given.body : null;
    const answer = { ...given, body, fingerprint: claim.fingerprint };
    try {
      if (tx.broken) throw tx.broken;
      const done = await this.table.keepAnswerAndCommit(tx, claim, answer);
      if (done !== 'COMMIT') throw new AbortedRequest();
    } catch (err) {
      await this.end(tx, 'ROLLBACK');
      if (answer.status < 400 || !(err instanceof AbortedRequest || isAborted(err))) throw err;
      await this.table.keepAlone(this.pool, claim, answer);
      return;
    }
    tx.end(true);
    tx.release();
  }

  /** Rolls the request's changes back (a failure: the key is free for a repeat). */
  rollback(tx: RequestTransaction): Promise<void> {
    return this.end(tx, 'ROLLBACK');
  }

  private async end(tx: RequestTransaction, sql: 'ROLLBACK'): Promise<void> {
    try {
      await tx.run(sql);
      tx.release(tx.broken ?? undefined);
    } catch (err) {
      tx.release(err as Error);
    } finally {
      tx.end(false);
    }
  }

  /** Deletes the answers older than the TTL, every tenant's (a purge by age); how many. */
  purge(now = new Date()): Promise<number> {
    const before = new Date(now.getTime() - IDEMPOTENT_ANSWER_TTL_HOURS * 3600_000);
    return acrossTenants('purge of kept answers of keyed POSTs', () =>
      this.table.deleteOlderThan(this.pool, before),
    );
  }
}
