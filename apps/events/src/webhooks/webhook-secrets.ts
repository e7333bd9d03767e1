import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { acrossTenants } from '@crm/request-context';
import { SecretBox } from '@crm/secrets';
import { WebhooksRepository } from './webhooks.repository';

const BATCH = 200;

/**
 * The endpoints' signing secrets at rest: sealed with the first key of SECRETS_KEY (SecretBox,
 * @crm/secrets) on every write (I1, I6) and opened by the delivery worker only. At start every
 * process seals what is not sealed with the current key: rows written before sealing existed
 * (plain) and rows sealed with an older key, so after a key rotation the old key can go once a
 * process with the new one has started. Idempotent, and safe with several replicas at once (each
 * row is replaced only if it is still what was read). A value sealed with a key that SECRETS_KEY
 * no longer holds stops the start, naming the key id.
 */
@Injectable()
export class WebhookSecrets implements OnApplicationBootstrap {
  private readonly logger = new Logger(WebhookSecrets.name);

  constructor(
    private readonly box: SecretBox,
    private readonly repo: WebhooksRepository,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const n = await this.resealAll();
    if (n)
      this.logger.log(
        `webhook secrets of ${n} endpoint(s) sealed with key ${this.box.currentKeyId}`,
      );
  }

  /** A secret as it is to be stored. */
  seal(plain: string): string {
    return this.box.seal(plain);
  }

  /** A stored secret (sealed, or a legacy plain one) as it is to be stored now. */
  reseal(stored: string): string {
    return this.box.reseal(stored);
  }

  /** The clear secret of a stored one. Throws SecretOpenError (naming the key id) if it cannot. */
  open(stored: string): string {
    return this.box.open(stored);
  }

  /**
   * Seals every stored secret not sealed with the current key; how many endpoints it rewrote.
   * Across tenants: the key is the process's, and so is the work of bringing every row to it.
   */
  resealAll(): Promise<number> {
    return acrossTenants('webhook secrets re-sealed with the current key', () => this.resealRows());
  }

  private async resealRows(): Promise<number> {
    let rewritten = 0;
    let after: string | null = null;
    for (;;) {
      const rows = await this.repo.endpointsToReseal(this.box.currentPrefix, after, BATCH);
      for (const row of rows) {
        const to = {
          secret: this.box.reseal(row.secret),
          previousSecret: row.previousSecret === null ? null : this.box.reseal(row.previousSecret),
        };
        if (await this.repo.replaceSecrets(row.id, row, to)) rewritten++;
      }
      if (rows.length < BATCH) return rewritten;
      after = rows[rows.length - 1]!.id;
    }
  }
}
