import { Module } from '@nestjs/common';
import { secretBoxProvider } from '@crm/secrets';
import { SigningKeys } from './signing-keys';
import { SigningKeysRepository } from './signing-keys.repository';

/**
 * The events' Ed25519 signing keys. Ticket types create an event's key with its first type (and
 * with the types copied to a duplicated event), in their transaction (SigningKeys.ensure), so
 * that reading codes never has to write. Private keys are stored sealed with SECRETS_KEY.
 */
@Module({
  providers: [secretBoxProvider, SigningKeysRepository, SigningKeys],
  exports: [SigningKeys],
})
export class TicketCodesModule {}
