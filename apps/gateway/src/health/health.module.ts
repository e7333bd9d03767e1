import { Module } from '@nestjs/common';
import { HealthController, Readiness, READINESS_CHECKS, ReadinessCheck } from '@crm/service-kit';
import { AccessEventsListener } from '../auth/access-events.listener';
import { AuthModule } from '../auth/auth.module';

/**
 * /health/live and /health/ready; ready = NATS answers (keys are verified over it). The
 * subgraphs are not checked: the supergraph is loaded at start, and a service that is down
 * fails only its own REST paths and GraphQL fields (503), never the gateway's readiness.
 */
@Module({
  imports: [AuthModule],
  controllers: [HealthController],
  providers: [
    Readiness,
    {
      provide: READINESS_CHECKS,
      inject: [AccessEventsListener],
      useFactory: (nats: AccessEventsListener): ReadinessCheck[] => [
        { name: 'nats', check: () => nats.ping() },
      ],
    },
  ],
})
export class HealthModule {}
