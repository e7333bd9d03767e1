import { Inject, Injectable, Logger, OnApplicationShutdown, OnModuleInit } from '@nestjs/common';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { AppException, RpcErrorPayload } from '@crm/errors';
import { SERVICE_CONFIG } from '@crm/service-kit';
import type { BookingsInvitationsConfig } from '../config';
import type { SaleOutcome, SaleRequest } from './booking-batch-writer';
import { fromWire, unanswered, WireOutcome } from './sale-wire';
import { BatchOutcomeUnknown } from './write-batches';

/** What the API's thread sends the writer's: a batch to write, or stop (nothing is pending). */
export type ToWriter = { id: number; batch: SaleRequest[] } | { stop: true };
/** What the writer's thread answers: ready once started, then per batch its outcomes or error. */
export type FromWriter =
  | { ready: true }
  | { id: number; outcomes: WireOutcome[] }
  | { id: number; failed: RpcErrorPayload };

/** How long a writer that ended unasked waits before it is started again. */
const RESTART_DELAY_MS = 1000;
/**
 * The thread's V8 heap: a batch of 250 bookings needs a few MB; the thread itself adds about 80 MB
 * of RSS to the process (its own Nest context, Prisma client and pool), measured at start.
 */
const WRITER_HEAP_MB = 96;
/** How long a stopping writer may take to close its pool before it is ended. */
const STOP_TIMEOUT_MS = 10_000;

/**
 * BookingBatchWriter in a worker thread of its own (sale-writer.worker.ts): its statements'
 * answers are handled as they come instead of after the requests queued on the API's event loop.
 * Measured in the on-sale (README, stop 45): 877 and 905 bookings/s against 832 and 784 with the
 * writer on the API's loop. The batches are cut there (WriteBatches, TenantSales) and cross to
 * the thread as one message each; outcomes come back in the sale-wire form. A thread that ends
 * unasked (a bug) is started again; the batches it had are answered 503 and not written again
 * (it may have committed them), as a replica's forwarded requests whose writer went silent.
 */
@Injectable()
export class SaleWriterThread implements OnModuleInit, OnApplicationShutdown {
  /** Writer threads started again after one ended unasked (booking_sale_writer_restarts_total). */
  readonly stats = { restarts: 0 };

  private readonly logger = new Logger(SaleWriterThread.name);
  /** Each batch sent and not yet answered, by id: its answer (null: none will come) and its wait. */
  private readonly pending = new Map<
    number,
    { answer: (reply: FromWriter | null) => void; answered: Promise<FromWriter | null> }
  >();
  private worker: Promise<Worker> | null = null;
  private nextId = 1;
  /** Once the first thread has started: a thread that ends later is started again. */
  private running = false;
  private stopping = false;
  private stopped: Promise<void> | null = null;

  constructor(@Inject(SERVICE_CONFIG) private readonly config: BookingsInvitationsConfig) {}

  /**
   * The app starts once its writer has: a writer that cannot start fails the start. The mail
   * worker's process has the bookings domain for its renderers but sells nothing: none there.
   */
  async onModuleInit(): Promise<void> {
    if (this.config.PROCESS_ROLE === 'mail-worker') return;
    this.worker = this.start();
    await this.worker;
  }

  async write(batch: SaleRequest[]): Promise<SaleOutcome[]> {
    this.worker ??= this.start();
    const worker = await this.worker;
    const id = this.nextId++;
    let answer!: (reply: FromWriter | null) => void;
    const answered = new Promise<FromWriter | null>((resolve) => (answer = resolve));
    this.pending.set(id, { answer, answered });
    worker.postMessage({ id, batch } satisfies ToWriter);
    const reply = await answered;
    if (!reply) throw new BatchOutcomeUnknown(unanswered());
    if ('failed' in reply) throw AppException.fromRpc(reply.failed);
    return (reply as { outcomes: WireOutcome[] }).outcomes.map(fromWire);
  }

  /** After the HTTP server closed: the batches still pending are answered, then the thread stops. */
  onApplicationShutdown(): Promise<void> {
    // once, however often the app is closed
    this.stopped ??= this.stop();
    return this.stopped;
  }

  private async stop(): Promise<void> {
    this.stopping = true;
    const worker = await this.worker?.catch(() => null);
    if (!worker) return;
    await Promise.all([...this.pending.values()].map((p) => p.answered));
    const exited = new Promise((r) => {
      worker.once('exit', r);
      // one that has ended already has threadId -1
      if (worker.threadId === -1) r(null);
    });
    worker.postMessage({ stop: true } satisfies ToWriter);
    const timer = setTimeout(() => void worker.terminate(), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private start(): Promise<Worker> {
    // From the sources (tests, `npm start` of the sources): compiled as it loads, as the app is.
    const fromSource = __filename.endsWith('.ts');
    const worker = new Worker(
      path.join(__dirname, `sale-writer.worker${path.extname(__filename)}`),
      {
        workerData: { config: { ...this.config } },
        // a thread that leaks ends alone (and is started again) before the pod's memory limit
        resourceLimits: { maxOldGenerationSizeMb: WRITER_HEAP_MB },
        ...(fromSource
          ? { execArgv: [...process.execArgv, '--require', '@swc-node/register'] }
          : {}),
      },
    );
    const started = new Promise<Worker>((resolve, reject) => {
      worker.on('message', (msg: FromWriter) => {
        if ('ready' in msg) {
          this.running = true;
          return resolve(worker);
        }
        const sent = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        sent?.answer(msg);
      });
      worker.on('error', (err) => {
        this.logger.error(`sale writer thread failed: ${err.stack ?? err.message}`);
        reject(unanswered());
      });
      worker.on('exit', (code) => {
        reject(unanswered());
        // what it had may have been written: answered 503, never written again
        for (const sent of this.pending.values()) sent.answer(null);
        this.pending.clear();
        if (this.stopping || !this.running) return;
        this.logger.error(`sale writer thread ended (exit code ${code}): starting another`);
        this.stats.restarts++;
        this.worker = new Promise((r) => setTimeout(r, RESTART_DELAY_MS)).then(() => this.start());
      });
    });
    // a start that fails is seen by the write that waits for it (and by onModuleInit)
    started.catch(() => undefined);
    return started;
  }
}
