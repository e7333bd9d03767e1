import { Injectable, OnModuleInit } from '@nestjs/common';
import { AppMetrics } from '@crm/metrics';
import { acrossTenants } from '@crm/request-context';
import { WaitingListRepository } from './waiting-list.repository';

/** The waiting lists: entries waiting for a seat and offers open (held for their entry). */
@Injectable()
export class WaitingListMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: AppMetrics,
    private readonly entries: WaitingListRepository,
  ) {}

  onModuleInit(): void {
    this.metrics.gauge(
      'waiting_list_entries',
      'Waiting list entries by status: waiting, or offered (an offer open) (all tenants)',
      async () => {
        const open = await acrossTenants('gauge of waiting lists over all tenants', async () =>
          this.entries.countOpen(),
        );
        return [
          { labels: { status: 'waiting' }, value: open.waiting },
          { labels: { status: 'offered' }, value: open.offered },
        ];
      },
      ['status'],
    );
  }
}
