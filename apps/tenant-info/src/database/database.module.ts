import { Global, Module } from '@nestjs/common';
import { KEYED_POSTS, READINESS_CHECKS, ReadinessCheck } from '@crm/service-kit';
import { IdempotentRequests } from '@crm/persistence';
import { PrismaService } from './prisma.service';

@Global()
@Module({
  providers: [
    PrismaService,
    {
      provide: READINESS_CHECKS,
      useFactory: (prisma: PrismaService): ReadinessCheck[] => [
        { name: 'database', check: async () => void (await prisma.$queryRaw`SELECT 1`) },
      ],
      inject: [PrismaService],
    },
    {
      // keyed POSTs carried out once (service-kit carryOutKeyedPostsOnce)
      provide: KEYED_POSTS,
      useFactory: (prisma: PrismaService) => new IdempotentRequests(prisma.pool),
      inject: [PrismaService],
    },
  ],
  exports: [PrismaService, READINESS_CHECKS],
})
export class DatabaseModule {}
