import { Logger } from '@nestjs/common';

/**
 * Runs `sweep` every `intervalMs` until stopped: again at once while a sweep reports a full
 * batch (a backlog), else after the interval. A failing sweep (the database away) is logged
 * when it starts failing and when it recovers, with the count between, not once per attempt.
 */
export class SweepLoop {
  private stopped = false;
  private wake: (() => void) | null = null;
  private running: Promise<void> | null = null;
  private failures = 0;

  constructor(
    private readonly logger: Logger,
    private readonly intervalMs: number,
    /** Returns true when it had a full batch (more may be due). */
    private readonly sweep: () => Promise<boolean>,
  ) {}

  start(): void {
    if (this.intervalMs > 0 && !this.running) this.running = this.loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.wake?.();
    await this.running;
  }

  private async loop(): Promise<void> {
    while (!this.stopped) {
      let more = false;
      try {
        more = await this.sweep();
        if (this.failures) this.logger.log(`sweeping again after ${this.failures} failed attempts`);
        this.failures = 0;
      } catch (err) {
        if (!this.failures++) this.logger.warn(`sweep failed: ${(err as Error).message}`);
      }
      if (more || this.stopped) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.intervalMs);
        this.wake = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wake = null;
    }
  }
}
