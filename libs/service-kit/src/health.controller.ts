import { Controller, Get, Inject, Injectable, Optional } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import { AppException, ErrorCode } from '@crm/errors';
import { WithoutRequestContext } from '@crm/request-context';

/** A dependency the readiness probe checks (database, NATS...). */
export interface ReadinessCheck {
  name: string;
  check(): Promise<void>;
}
export const READINESS_CHECKS = Symbol('READINESS_CHECKS');

@Injectable()
export class Readiness {
  /** Set on SIGTERM (shutdown.ts): not ready any more, whatever the checks say. */
  draining = false;

  constructor(
    @Optional() @Inject(READINESS_CHECKS) private readonly checks: ReadinessCheck[] = [],
  ) {}

  async report(): Promise<Record<string, 'up' | 'down'>> {
    const results = await Promise.all(
      this.checks.map(async (c) => {
        try {
          await c.check();
          return [c.name, 'up'] as const;
        } catch {
          return [c.name, 'down'] as const;
        }
      }),
    );
    return Object.fromEntries(results);
  }
}

/** Kubernetes probes: liveness says the process serves; readiness that its dependencies answer. */
@ApiExcludeController()
@WithoutRequestContext()
@Controller('health')
export class HealthController {
  constructor(private readonly readiness: Readiness) {}

  @Get('live')
  live() {
    return { status: 'ok' };
  }

  @Get('ready')
  async ready() {
    // The process is stopping: callers must move elsewhere while it still serves (liveness
    // stays 200, so it is not killed before its drain ends).
    if (this.readiness.draining) {
      throw new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.shuttingDown');
    }
    const report = await this.readiness.report();
    if (Object.values(report).includes('down')) {
      throw new AppException(ErrorCode.SERVICE_UNAVAILABLE, 'errors.dependency.notReady', {
        checks: Object.entries(report)
          .filter(([, s]) => s === 'down')
          .map(([n]) => n)
          .join(', '),
      });
    }
    return { status: 'ok', checks: report };
  }
}
