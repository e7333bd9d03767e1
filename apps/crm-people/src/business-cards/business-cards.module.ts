import { Module } from '@nestjs/common';

/** Business cards of people (B1-B14). */
@Module({})
export class BusinessCardsModule {}
