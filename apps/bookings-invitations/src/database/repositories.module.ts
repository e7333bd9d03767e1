import { Global, Module } from '@nestjs/common';
import { BookingHistoryRepository } from '../bookings/booking-history.repository';
import { IdempotencyKeysRepository } from '../bookings/idempotency-keys.repository';
import { TombstonesRepository } from '../cross-service/tombstones.repository';
import { EventTicketsRepository } from '../event-tickets/event-tickets.repository';
import { InvitationsRepository } from '../invitations/invitations.repository';
import { InvoiceCounterRepository } from '../invoices/invoice-counter.repository';
import { TicketTypesRepository } from '../ticket-types/ticket-types.repository';
import { Transactions } from './transactions';

/**
 * The repositories that steps of several folders write through (a booking writes tickets, history,
 * invoice numbers and accepts invitations in one transaction): each is its table's one door, one
 * instance for the whole service. Repositories used by one folder only stay in its module.
 */
const SHARED_REPOSITORIES = [
  BookingHistoryRepository,
  IdempotencyKeysRepository,
  EventTicketsRepository,
  InvitationsRepository,
  InvoiceCounterRepository,
  TicketTypesRepository,
  TombstonesRepository,
  Transactions,
];

@Global()
@Module({ providers: SHARED_REPOSITORIES, exports: SHARED_REPOSITORIES })
export class RepositoriesModule {}
