-- AlterTable
ALTER TABLE "EventCopy" ADD COLUMN     "waitingListLinks" JSONB,
ADD COLUMN     "waitingListOfferMinutes" INTEGER NOT NULL DEFAULT 1440;

-- CreateTable
CREATE TABLE "WaitingListEntry" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "ticketTypeId" UUID NOT NULL,
    "token" VARCHAR(64) NOT NULL,
    "email" VARCHAR(254) NOT NULL,
    "firstname" VARCHAR(100) NOT NULL,
    "lastname" VARCHAR(100) NOT NULL,
    "quantity" INTEGER NOT NULL,
    "language" VARCHAR(10) NOT NULL,
    "websiteId" UUID,
    "status" VARCHAR(20) NOT NULL,
    "rank" INTEGER NOT NULL,
    "holdId" UUID,
    "offeredAt" TIMESTAMP(3),
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WaitingListEntry_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "WaitingListEntry_token_key" ON "WaitingListEntry"("token");

-- CreateIndex
CREATE UNIQUE INDEX "WaitingListEntry_holdId_key" ON "WaitingListEntry"("holdId");

-- CreateIndex
CREATE INDEX "WaitingListEntry_tenantId_ticketTypeId_status_rank_idx" ON "WaitingListEntry"("tenantId", "ticketTypeId", "status", "rank");

-- CreateIndex
CREATE INDEX "WaitingListEntry_tenantId_eventId_status_idx" ON "WaitingListEntry"("tenantId", "eventId", "status");

-- CreateIndex
CREATE INDEX "WaitingListEntry_status_ticketTypeId_idx" ON "WaitingListEntry"("status", "ticketTypeId");



-- One waiting entry per e-mail (any case) and ticket type: a second join is a 409 (alreadyWaiting).
CREATE UNIQUE INDEX "WaitingListEntry_waiting_email_key" ON "WaitingListEntry" ("tenantId", "ticketTypeId", lower("email")) WHERE "status" = 'waiting';

-- the API's ranges, kept by the table too
ALTER TABLE "WaitingListEntry" ADD CONSTRAINT "WaitingListEntry_quantity_check" CHECK ("quantity" >= 1);
ALTER TABLE "WaitingListEntry" ADD CONSTRAINT "WaitingListEntry_status_check" CHECK ("status" IN ('waiting', 'offered', 'left', 'removed'));
