/**
 * Every NATS subject, named `<service>.<aggregate>.<verb>`. Sender and receiver import the same
 * constant and the payload class beside it (contracts/), so a rename breaks the build, not prod.
 */
export const Subjects = {
  tenantInfo: {
    /** request: VerifyApiKeyRequest -> VerifyApiKeyReply */
    verifyApiKey: 'tenant-info.api-keys.verify',
    /** request: CreateTenantRequest -> TenantSummary */
    createTenant: 'tenant-info.tenants.create',
    /** request: IssueApiKeyRequest -> IssuedApiKey */
    issueApiKey: 'tenant-info.api-keys.issue',
    /** request: RevokeApiKeyRequest -> RevokedApiKey */
    revokeApiKey: 'tenant-info.api-keys.revoke',
    /** request: {} -> TariffSummary[] */
    listTariffs: 'tenant-info.tariffs.list',
    /** request: SetTenantTariffRequest -> TenantSummary */
    setTenantTariff: 'tenant-info.tenants.set-tariff',
    /** event: AccessChangedEvent (a key revoked or a tariff changed: caches must forget) */
    accessChanged: 'tenant-info.access.changed',
  },
  crmPeople: {
    /** request: MoveTouchpointsRequest -> MoveTouchpointsReply */
    moveTouchpoints: 'crm-people.touchpoints.move',
    /** request: PeopleExistRequest -> PeopleExistReply */
    peopleExist: 'crm-people.people.exist',
    /** outbox event (JetStream): PeopleCreatedEvent (webhook `person.created`) */
    peopleCreated: 'crm-people.people.created',
    /** outbox event (JetStream): PeopleDeletedEvent */
    peopleDeleted: 'crm-people.people.deleted',
    /** outbox event (JetStream): PeopleMergedEvent */
    peopleMerged: 'crm-people.people.merged',
    /** request: PeopleContactsRequest -> PeopleContactsReply */
    peopleContacts: 'crm-people.people.contacts',
  },
  crmCompanies: {
    /** request: CompanyExistsRequest -> CompanyExistsReply */
    companyExists: 'crm-companies.companies.exists',
    /** outbox event (JetStream): CompaniesDeletedEvent */
    companiesDeleted: 'crm-companies.companies.deleted',
  },
  events: {
    /** request: EventsExistRequest -> EventsExistReply */
    eventsExist: 'events.events.exist',
    /** outbox event (JetStream): EventChangedEvent */
    eventChanged: 'events.events.changed',
    /** outbox event (JetStream): EventPublishedEvent */
    eventPublished: 'events.events.published',
    /** outbox event (JetStream): EventDuplicatedEvent */
    eventDuplicated: 'events.events.duplicated',
    /** outbox event (JetStream): EventsDeletedEvent */
    eventsDeleted: 'events.events.deleted',
    /** outbox event (JetStream): WebsiteMigratedEvent */
    websiteMigrated: 'events.websites.migrated',
    /** request: InvoiceSenderRequest -> InvoiceSenderReply */
    invoiceSender: 'events.event-settings.invoice-sender',
  },
  bookingsInvitations: {
    /** request: TicketTypesSummaryRequest -> TicketTypesSummaryReply (E11/E12 publication check) */
    ticketTypesSummary: 'bookings-invitations.ticket-types.summary',
    /** outbox event (JetStream): BookingCreatedEvent (webhook `booking.created`, touchpoint) */
    bookingCreated: 'bookings-invitations.bookings.created',
    /** outbox event (JetStream): BookingLinkedEvent (touchpoint of a booker linked by BK9) */
    bookingLinked: 'bookings-invitations.bookings.linked',
    /** outbox event (JetStream): BookingCancelledEvent (webhook `booking.cancelled`, touchpoint) */
    bookingCancelled: 'bookings-invitations.bookings.cancelled',
    /** outbox event (JetStream): BookingTicketsCancelledEvent (some tickets; no consumer yet) */
    ticketsCancelled: 'bookings-invitations.tickets.cancelled',
    /** outbox event (JetStream): InvitationRespondedEvent (touchpoint) */
    invitationAccepted: 'bookings-invitations.invitations.accepted',
    /** outbox event (JetStream): InvitationRespondedEvent (webhook `invitation.rejected`, touchpoint) */
    invitationRejected: 'bookings-invitations.invitations.rejected',
    /** outbox event (JetStream): TicketCheckedInEvent (webhook `ticket.checked_in`, touchpoint) */
    ticketCheckedIn: 'bookings-invitations.tickets.checked-in',
  },
} as const;

/** The queue group of a service: replicas share it, so each command is handled once. */
export const queueGroup = (service: string) => `${service}-workers`;
