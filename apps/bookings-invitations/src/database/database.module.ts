import { Global, Module } from '@nestjs/common';
import { READINESS_CHECKS, ReadinessCheck } from '@crm/service-kit';
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
  ],
  exports: [PrismaService, READINESS_CHECKS],
})
export class DatabaseModule {}
