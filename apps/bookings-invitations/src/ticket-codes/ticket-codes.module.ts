import { Module } from '@nestjs/common';
import { SigningKeys } from './signing-keys';

/**
 * The events' Ed25519 signing keys. Ticket types create an event's key with its first type (and
 * with the types copied to a duplicated event), in their transaction (SigningKeys.ensure), so
 * that reading codes never has to write.
 */
@Module({
  providers: [SigningKeys],
  exports: [SigningKeys],
})
export class TicketCodesModule {}
