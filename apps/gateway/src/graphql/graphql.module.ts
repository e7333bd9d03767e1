import { Module } from '@nestjs/common';
import { AuthModule } from '../auth/auth.module';
import { GraphqlController } from './graphql.controller';
import { SupergraphService } from './supergraph.service';

@Module({
  imports: [AuthModule],
  controllers: [GraphqlController],
  providers: [SupergraphService],
  exports: [SupergraphService],
})
export class GraphqlModule {}
