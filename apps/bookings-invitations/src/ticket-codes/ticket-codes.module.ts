import { Module } from '@nestjs/common';
import { SigningKeys } from './signing-keys';

/**
 * The events' Ed25519 signing keys. Bookings import it to create an event's key when they issue
 * its first tickets (SigningKeys.require), so that reading codes never has to write.
 */
@Module({
  providers: [SigningKeys],
  exports: [SigningKeys],
})
export class TicketCodesModule {}
