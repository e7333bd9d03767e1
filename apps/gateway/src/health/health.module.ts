import { Module } from '@nestjs/common';
import { HealthController, Readiness, READINESS_CHECKS, ReadinessCheck } from '@crm/service-kit';
import { AccessEventsListener } from '../auth/access-events.listener';
import { AuthModule } from '../auth/auth.module';
import { GraphqlModule } from '../graphql/graphql.module';
import { SupergraphService } from '../graphql/supergraph.service';

/** /health/live and /health/ready; ready = NATS answers and the supergraph is composed. */
@Module({
  imports: [AuthModule, GraphqlModule],
  controllers: [HealthController],
  providers: [
    Readiness,
    {
      provide: READINESS_CHECKS,
      inject: [AccessEventsListener, SupergraphService],
      useFactory: (nats: AccessEventsListener, supergraph: SupergraphService): ReadinessCheck[] => [
        { name: 'nats', check: () => nats.ping() },
        {
          name: 'supergraph',
          check: async () => {
            if (!supergraph.composed) throw new Error('not composed');
          },
        },
      ],
    },
  ],
})
export class HealthModule {}
