import { Module } from '@nestjs/common';
import { TenantsModule } from '../tenants/tenants.module';
import { ApiKeysMessages } from './api-keys.messages';
import { ApiKeysRepository } from './api-keys.repository';
import { ApiKeysService } from './api-keys.service';

@Module({
  imports: [TenantsModule],
  controllers: [ApiKeysMessages],
  providers: [ApiKeysRepository, ApiKeysService],
})
export class ApiKeysModule {}
