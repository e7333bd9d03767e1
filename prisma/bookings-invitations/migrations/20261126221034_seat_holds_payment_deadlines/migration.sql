-- AlterTable
ALTER TABLE "EventCopy" ADD COLUMN     "held" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "holdMinutes" INTEGER NOT NULL DEFAULT 15,
ADD COLUMN     "paymentDeadlineHours" INTEGER,
ADD COLUMN     "paymentReminderHours" INTEGER;

-- AlterTable
ALTER TABLE "TicketType" ADD COLUMN     "held" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Booking" ADD COLUMN     "paymentDueAt" TIMESTAMP(3),
ADD COLUMN     "paymentRemindedAt" TIMESTAMP(3);

-- CreateTable
CREATE TABLE "SeatHold" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "token" VARCHAR(64) NOT NULL,
    "seats" JSONB NOT NULL,
    "status" VARCHAR(20) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "bookingId" UUID,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SeatHold_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "SeatHold_token_key" ON "SeatHold"("token");

-- CreateIndex
-- partial: the sweeper reads only the active holds, however many old ones there are
CREATE INDEX "SeatHold_status_expiresAt_idx" ON "SeatHold"("status", "expiresAt") WHERE "status" = 'active';

-- CreateIndex
CREATE INDEX "SeatHold_tenantId_eventId_status_idx" ON "SeatHold"("tenantId", "eventId", "status");

-- CreateIndex
-- partial: only bookings that can still pass their deadline
CREATE INDEX "Booking_paymentDueAt_idx" ON "Booking"("paymentDueAt")
  WHERE "paymentStatus" = 'open' AND "status" = 'confirmed' AND "paymentDueAt" IS NOT NULL;

-- a counter below zero is a bug, not a state
ALTER TABLE "TicketType" ADD CONSTRAINT "TicketType_held_check" CHECK ("held" >= 0);
ALTER TABLE "EventCopy" ADD CONSTRAINT "EventCopy_held_check" CHECK ("held" >= 0);

