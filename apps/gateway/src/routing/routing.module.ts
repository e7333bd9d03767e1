import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { IdempotencyStore } from './idempotency-store';
import { RateLimits } from './rate-limit/rate-limits.service';
import { ServiceForwarder } from './service-forwarder';

@Module({
  imports: [AuthModule],
  providers: [ServiceForwarder, IdempotencyStore, RateLimits],
  exports: [ServiceForwarder, IdempotencyStore, RateLimits],
})
export class RoutingModule {}
