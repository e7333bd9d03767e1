import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { ProxyService } from './proxy.service';

@Module({
  imports: [AuthModule],
  providers: [ProxyService],
  exports: [ProxyService],
})
export class RoutingModule {}
