-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "OutboxEvent" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "subject" VARCHAR(200) NOT NULL,
    "payload" JSONB NOT NULL,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "publishedAt" TIMESTAMP(3),
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lastError" TEXT,

    CONSTRAINT "OutboxEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ProcessedEvent" (
    "id" UUID NOT NULL,
    "subject" VARCHAR(200) NOT NULL,
    "dateProcessed" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ProcessedEvent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EventCopy" (
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "sequence" INTEGER NOT NULL,
    "title" TEXT NOT NULL,
    "startsAt" TIMESTAMP(3),
    "endsAt" TIMESTAMP(3),
    "timeZone" TEXT NOT NULL,
    "capacity" INTEGER,
    "published" BOOLEAN NOT NULL,
    "status" VARCHAR(50) NOT NULL,
    "taxRateId" VARCHAR(50),
    "cancellationTiers" JSONB,
    "bookingFormFieldSetId" UUID,
    "websiteIds" UUID[],
    "deleted" BOOLEAN NOT NULL DEFAULT false,
    "dateModified" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EventCopy_pkey" PRIMARY KEY ("tenantId","eventId")
);

-- CreateTable
CREATE TABLE "TicketType" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "description" TEXT,
    "price" DECIMAL(12,2) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "taxRateId" VARCHAR(50),
    "quota" INTEGER,
    "saleStartsAt" TIMESTAMP(3),
    "saleEndsAt" TIMESTAMP(3),
    "minPerBooking" INTEGER NOT NULL DEFAULT 1,
    "maxPerBooking" INTEGER,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "copiedFromId" UUID,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "createdBy" TEXT NOT NULL,
    "createdByUserId" TEXT,
    "modifiedBy" TEXT NOT NULL,
    "modifiedByUserId" TEXT,

    CONSTRAINT "TicketType_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OutboxEvent_publishedAt_dateCreated_idx" ON "OutboxEvent"("publishedAt", "dateCreated");

-- CreateIndex
CREATE INDEX "TicketType_tenantId_eventId_dateCreated_idx" ON "TicketType"("tenantId", "eventId", "dateCreated");

-- CreateIndex
CREATE UNIQUE INDEX "TicketType_tenantId_eventId_copiedFromId_key" ON "TicketType"("tenantId", "eventId", "copiedFromId");

