import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { IdempotencyStore } from './idempotency-store';
import { ServiceForwarder } from './service-forwarder';

@Module({
  imports: [AuthModule],
  providers: [ServiceForwarder, IdempotencyStore],
  exports: [ServiceForwarder, IdempotencyStore],
})
export class RoutingModule {}
