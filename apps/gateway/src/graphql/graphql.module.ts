import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { SupergraphService } from './supergraph.service';

@Module({
  imports: [AuthModule],
  providers: [SupergraphService],
  exports: [SupergraphService],
})
export class GraphqlModule {}
