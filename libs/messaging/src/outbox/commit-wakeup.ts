import { Logger } from '@nestjs/common';
import { Client as PgClient } from 'pg';

/**
 * What a polling worker waits on between rounds (the outbox relay, the mail worker): a sleep
 * that ends early when a writer's transaction commits (writers `pg_notify(channel)`; this LISTENs
 * on a connection of its own) or when wake() is called. A wake while the worker is busy makes the
 * next sleep return at once, so a commit between two rounds is never slept through. A broken
 * LISTEN connection is retried every 2 s; polling covers the gap.
 */
export class CommitWakeup {
  private readonly logger = new Logger(CommitWakeup.name);
  private running = false;
  private woken = false;
  private wakeUp: (() => void) | null = null;
  private listener: PgClient | null = null;
  private listening: Promise<void> | null = null;

  /** `databaseUrl` undefined: no LISTEN, only wake() and the poll interval. */
  constructor(
    private readonly channel: string,
    private readonly databaseUrl?: string,
  ) {}

  start(): void {
    if (this.running) return;
    this.running = true;
    if (this.databaseUrl) this.listening = this.listen(this.databaseUrl);
  }

  /** Ends a sleep in progress and the LISTEN connection. */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    const l = this.listener;
    this.listener = null;
    await l?.end().catch(() => undefined);
    await this.listening;
  }

  /** Look now instead of at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** At most `ms`; at once when woken since the last sleep or stopped. */
  sleep(ms: number): Promise<void> {
    if (this.woken || !this.running) {
      this.woken = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        this.woken = false;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.wakeUp = done;
    });
  }

  private async listen(url: string): Promise<void> {
    while (this.running) {
      const client = new PgClient({ connectionString: url });
      try {
        const ended = new Promise<void>((resolve) => {
          client.on('error', () => resolve());
          client.on('end', () => resolve());
        });
        await client.connect();
        client.on('notification', () => this.wake());
        await client.query(`LISTEN ${this.channel}`);
        this.listener = client;
        if (this.running) await ended;
      } catch (err) {
        this.logger.debug(`LISTEN ${this.channel}: ${(err as Error).message}`);
      }
      await client.end().catch(() => undefined);
      if (this.running) await new Promise((r) => setTimeout(r, 2000));
    }
  }
}
