import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppMetrics } from '@crm/metrics';
import { acrossTenants } from '@crm/request-context';
import { ImportJobsRepository } from './import-jobs.repository';

/** Invitation imports not finished: queued ones that do not start say the worker is stuck. */
@Injectable()
export class ImportMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: AppMetrics,
    private readonly jobs: ImportJobsRepository,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge(
      'import_jobs',
      'Invitation import jobs by status: queued or running (all tenants)',
      async () => {
        const open = await acrossTenants('gauge of import jobs over all tenants', async () =>
          this.jobs.countUnfinished(),
        );
        return [
          { labels: { status: 'queued' }, value: open.queued },
          { labels: { status: 'running' }, value: open.running },
        ];
      },
      ['status'],
    );
  }
}
