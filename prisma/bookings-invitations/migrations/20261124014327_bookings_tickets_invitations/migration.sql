-- AlterTable
ALTER TABLE "EventCopy" ADD COLUMN     "bookingFormFields" JSONB,
ADD COLUMN     "sold" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "TicketType" ADD COLUMN     "sold" INTEGER NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "Booking" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "paymentStatus" VARCHAR(30) NOT NULL,
    "bookerFirstname" VARCHAR(200) NOT NULL,
    "bookerLastname" VARCHAR(200) NOT NULL,
    "bookerEmail" VARCHAR(320) NOT NULL,
    "bookerPersonId" UUID,
    "language" VARCHAR(10) NOT NULL,
    "bookerInformation" JSONB,
    "answers" JSONB,
    "invitationId" UUID,
    "websiteId" UUID,
    "currency" CHAR(3) NOT NULL,
    "totalNet" DECIMAL(12,2) NOT NULL,
    "totalTax" DECIMAL(12,2) NOT NULL,
    "totalGross" DECIMAL(12,2) NOT NULL,
    "cancellationTiers" JSONB,
    "cancelledAt" TIMESTAMP(3),
    "cancellationFee" DECIMAL(12,2),
    "refundAmount" DECIMAL(12,2),
    "invoiceNumber" VARCHAR(50),
    "invoiceDate" TIMESTAMP(3),
    "confirmationToken" VARCHAR(64) NOT NULL,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,
    "createdByUserId" TEXT,
    "modifiedBy" TEXT NOT NULL,
    "modifiedByUserId" TEXT,

    CONSTRAINT "Booking_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "InvoiceCounter" (
    "tenantId" TEXT NOT NULL,
    "year" INTEGER NOT NULL,
    "last" INTEGER NOT NULL,

    CONSTRAINT "InvoiceCounter_pkey" PRIMARY KEY ("tenantId","year")
);

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "tenantId" TEXT NOT NULL,
    "key" VARCHAR(200) NOT NULL,
    "requestHash" CHAR(64) NOT NULL,
    "bookingId" UUID NOT NULL,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("tenantId","key")
);

-- CreateTable
CREATE TABLE "BookingHistory" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "bookingId" UUID NOT NULL,
    "action" VARCHAR(50) NOT NULL,
    "actor" TEXT NOT NULL,
    "actorUserId" TEXT,
    "data" JSONB,
    "at" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BookingHistory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EventTicket" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "bookingId" UUID NOT NULL,
    "ticketTypeId" UUID NOT NULL,
    "ticketTypeName" VARCHAR(200) NOT NULL,
    "priceGross" DECIMAL(12,2) NOT NULL,
    "priceNet" DECIMAL(12,2) NOT NULL,
    "priceTax" DECIMAL(12,2) NOT NULL,
    "taxRatePercent" DECIMAL(5,2) NOT NULL,
    "taxRateId" VARCHAR(50),
    "status" VARCHAR(20) NOT NULL,
    "participantFirstname" VARCHAR(200) NOT NULL,
    "participantLastname" VARCHAR(200) NOT NULL,
    "participantEmail" VARCHAR(320),
    "participantInformation" JSONB,
    "integrationData" JSONB,
    "revokedAt" TIMESTAMP(3),
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EventTicket_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CheckIn" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "ticketId" UUID NOT NULL,
    "nonce" VARCHAR(100),
    "location" VARCHAR(200),
    "actor" TEXT NOT NULL,
    "checkedInAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CheckIn_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EventSigningKey" (
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "keyId" VARCHAR(16) NOT NULL,
    "publicKey" TEXT NOT NULL,
    "privateKey" TEXT NOT NULL,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EventSigningKey_pkey" PRIMARY KEY ("tenantId","eventId")
);

-- CreateTable
CREATE TABLE "Invitation" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "token" VARCHAR(64) NOT NULL,
    "personId" UUID,
    "email" VARCHAR(320) NOT NULL,
    "emailKey" VARCHAR(320) NOT NULL,
    "firstname" VARCHAR(200),
    "lastname" VARCHAR(200),
    "language" VARCHAR(10) NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "inviteeInformation" JSONB,
    "websiteId" UUID,
    "bookingId" UUID,
    "importJobId" UUID,
    "sentAt" TIMESTAMP(3),
    "respondedAt" TIMESTAMP(3),
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,
    "createdByUserId" TEXT,
    "modifiedBy" TEXT NOT NULL,
    "modifiedByUserId" TEXT,

    CONSTRAINT "Invitation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Mail" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "kind" VARCHAR(50) NOT NULL,
    "toAddress" VARCHAR(320) NOT NULL,
    "toName" VARCHAR(400),
    "language" VARCHAR(10) NOT NULL,
    "subject" VARCHAR(500) NOT NULL,
    "text" TEXT NOT NULL,
    "attachments" JSONB,
    "bookingId" UUID,
    "invitationId" UUID,
    "ticketId" UUID,
    "eventId" UUID,
    "status" VARCHAR(20) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastError" TEXT,
    "messageId" TEXT,
    "sentAt" TIMESTAMP(3),
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Mail_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ImportJob" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "fileName" VARCHAR(300) NOT NULL,
    "fileHash" CHAR(64) NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "totalRows" INTEGER NOT NULL DEFAULT 0,
    "processed" INTEGER NOT NULL DEFAULT 0,
    "created" INTEGER NOT NULL DEFAULT 0,
    "skipped" INTEGER NOT NULL DEFAULT 0,
    "failed" INTEGER NOT NULL DEFAULT 0,
    "rows" JSONB,
    "results" JSONB,
    "error" TEXT,
    "actor" TEXT NOT NULL,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMP(3),

    CONSTRAINT "ImportJob_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Booking_tenantId_eventId_dateCreated_idx" ON "Booking"("tenantId", "eventId", "dateCreated");

-- CreateIndex
CREATE INDEX "Booking_tenantId_bookerPersonId_idx" ON "Booking"("tenantId", "bookerPersonId");

-- CreateIndex
CREATE INDEX "Booking_tenantId_dateCreated_idx" ON "Booking"("tenantId", "dateCreated");

-- CreateIndex
CREATE UNIQUE INDEX "Booking_tenantId_invoiceNumber_key" ON "Booking"("tenantId", "invoiceNumber");

-- CreateIndex
CREATE INDEX "IdempotencyKey_dateCreated_idx" ON "IdempotencyKey"("dateCreated");

-- CreateIndex
CREATE INDEX "BookingHistory_tenantId_eventId_at_idx" ON "BookingHistory"("tenantId", "eventId", "at");

-- CreateIndex
CREATE INDEX "BookingHistory_tenantId_bookingId_at_idx" ON "BookingHistory"("tenantId", "bookingId", "at");

-- CreateIndex
CREATE INDEX "EventTicket_tenantId_eventId_dateCreated_idx" ON "EventTicket"("tenantId", "eventId", "dateCreated");

-- CreateIndex
CREATE INDEX "EventTicket_tenantId_bookingId_idx" ON "EventTicket"("tenantId", "bookingId");

-- CreateIndex
CREATE INDEX "EventTicket_tenantId_eventId_revokedAt_idx" ON "EventTicket"("tenantId", "eventId", "revokedAt");

-- CreateIndex
CREATE INDEX "EventTicket_tenantId_ticketTypeId_idx" ON "EventTicket"("tenantId", "ticketTypeId");

-- CreateIndex
CREATE UNIQUE INDEX "CheckIn_ticketId_key" ON "CheckIn"("ticketId");

-- CreateIndex
CREATE INDEX "CheckIn_tenantId_eventId_checkedInAt_idx" ON "CheckIn"("tenantId", "eventId", "checkedInAt");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_token_key" ON "Invitation"("token");

-- CreateIndex
CREATE INDEX "Invitation_tenantId_eventId_dateCreated_idx" ON "Invitation"("tenantId", "eventId", "dateCreated");

-- CreateIndex
CREATE INDEX "Invitation_tenantId_personId_idx" ON "Invitation"("tenantId", "personId");

-- CreateIndex
CREATE UNIQUE INDEX "Invitation_tenantId_eventId_emailKey_key" ON "Invitation"("tenantId", "eventId", "emailKey");

-- CreateIndex
CREATE INDEX "Mail_status_nextAttemptAt_idx" ON "Mail"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "Mail_tenantId_bookingId_dateCreated_idx" ON "Mail"("tenantId", "bookingId", "dateCreated");

-- CreateIndex
CREATE INDEX "Mail_tenantId_invitationId_dateCreated_idx" ON "Mail"("tenantId", "invitationId", "dateCreated");

-- CreateIndex
CREATE INDEX "ImportJob_tenantId_eventId_dateCreated_idx" ON "ImportJob"("tenantId", "eventId", "dateCreated");

-- CreateIndex
CREATE INDEX "ImportJob_status_dateCreated_idx" ON "ImportJob"("status", "dateCreated");

-- AddForeignKey
ALTER TABLE "EventTicket" ADD CONSTRAINT "EventTicket_bookingId_fkey" FOREIGN KEY ("bookingId") REFERENCES "Booking"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CheckIn" ADD CONSTRAINT "CheckIn_ticketId_fkey" FOREIGN KEY ("ticketId") REFERENCES "EventTicket"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Counters never go below zero (a release without a take is a bug the consistency check reports).
ALTER TABLE "TicketType" ADD CONSTRAINT "TicketType_sold_nonnegative" CHECK ("sold" >= 0);
ALTER TABLE "EventCopy" ADD CONSTRAINT "EventCopy_sold_nonnegative" CHECK ("sold" >= 0);
