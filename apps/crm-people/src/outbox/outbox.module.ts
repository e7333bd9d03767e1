import { Module } from '@nestjs/common';

/** Outbox relay of crm-people's cross-service events. */
@Module({})
export class OutboxModule {}
