import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ServiceForwarder } from './service-forwarder';

@Module({
  imports: [AuthModule],
  providers: [ServiceForwarder],
  exports: [ServiceForwarder],
})
export class RoutingModule {}
