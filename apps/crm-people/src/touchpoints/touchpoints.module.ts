import { Module } from '@nestjs/common';

/** Touchpoints (T1-T14) and the NATS command crm-people.touchpoints.move. */
@Module({})
export class TouchpointsModule {}
