import { Module } from '@nestjs/common';
import { TariffsModule } from '../tariffs/tariffs.module';
import { TenantsController } from './tenants.controller';
import { TenantsMessages } from './tenants.messages';
import { TenantsRepository } from './tenants.repository';
import { TenantsResolver } from './tenants.resolver';
import { TenantsService } from './tenants.service';

@Module({
  imports: [TariffsModule],
  controllers: [TenantsController, TenantsMessages],
  providers: [TenantsRepository, TenantsService, TenantsResolver],
  exports: [TenantsService],
})
export class TenantsModule {}
