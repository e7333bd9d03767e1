-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "EventSettingsList" AS ENUM ('BOOKING_FORM_FIELD_SETS', 'CANCELLATION_CONDITIONS', 'CONTRIBUTOR_ROLES', 'EVENT_CATEGORIES', 'ORGA_TAGS', 'PORTAL_TAGS');

-- CreateTable
CREATE TABLE "Event" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "title" VARCHAR(200) NOT NULL,
    "subtitle" VARCHAR(300),
    "description" TEXT,
    "startsAt" TIMESTAMP(3),
    "endsAt" TIMESTAMP(3),
    "timeZone" VARCHAR(64) NOT NULL,
    "venue" JSONB,
    "onlineMeeting" JSONB,
    "capacity" INTEGER,
    "categoryId" UUID,
    "contributors" JSONB NOT NULL DEFAULT '[]',
    "contactPerson" JSONB,
    "bookingFormFieldSetId" UUID,
    "cancellationConditionId" UUID,
    "taxRateId" VARCHAR(64),
    "note" TEXT,
    "status" VARCHAR(20) NOT NULL DEFAULT 'draft',
    "published" BOOLEAN NOT NULL DEFAULT false,
    "publishedAt" TIMESTAMP(3),
    "sequence" INTEGER NOT NULL DEFAULT 0,
    "createdBy" TEXT,
    "modifiedBy" TEXT,
    "createdByUserId" UUID,
    "modifiedByUserId" UUID,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Event_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EventTag" (
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "entryId" UUID NOT NULL,

    CONSTRAINT "EventTag_pkey" PRIMARY KEY ("eventId","entryId")
);

-- CreateTable
CREATE TABLE "EventWebsite" (
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "websiteId" UUID NOT NULL,

    CONSTRAINT "EventWebsite_pkey" PRIMARY KEY ("eventId","websiteId")
);

-- CreateTable
CREATE TABLE "EventFile" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "fileName" VARCHAR(255) NOT NULL,
    "contentType" VARCHAR(200) NOT NULL,
    "size" INTEGER NOT NULL,
    "storageKey" VARCHAR(500) NOT NULL,
    "createdBy" TEXT,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EventFile_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EventImage" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "eventId" UUID NOT NULL,
    "storageKey" VARCHAR(500) NOT NULL,
    "fileName" VARCHAR(255),
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdBy" TEXT,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EventImage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "EventSettings" (
    "tenantId" TEXT NOT NULL,
    "timeZone" VARCHAR(64) NOT NULL,
    "currency" VARCHAR(3) NOT NULL,
    "eventDefaults" JSONB NOT NULL DEFAULT '{}',
    "invoiceSender" JSONB NOT NULL DEFAULT '{}',
    "modifiedBy" TEXT,
    "modifiedByUserId" UUID,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "EventSettings_pkey" PRIMARY KEY ("tenantId")
);

-- CreateTable
CREATE TABLE "EventSettingsEntry" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "list" "EventSettingsList" NOT NULL,
    "text" VARCHAR(200) NOT NULL,
    "color" VARCHAR(20),
    "category" VARCHAR(200),
    "position" INTEGER NOT NULL DEFAULT 0,
    "data" JSONB,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "EventSettingsEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ContactPersonTemplate" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "salutation" VARCHAR(50),
    "title" VARCHAR(100),
    "firstname" VARCHAR(200),
    "lastname" VARCHAR(200),
    "position" VARCHAR(200),
    "email" VARCHAR(320),
    "phone" VARCHAR(50),
    "image" VARCHAR(500),
    "imageDateModified" TIMESTAMP(3),
    "createdBy" TEXT,
    "modifiedBy" TEXT,
    "createdByUserId" UUID,
    "modifiedByUserId" UUID,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ContactPersonTemplate_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Website" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "url" VARCHAR(500) NOT NULL,
    "urlKey" VARCHAR(500) NOT NULL,
    "description" TEXT,
    "language" VARCHAR(10),
    "config" JSONB NOT NULL DEFAULT '{}',
    "published" BOOLEAN NOT NULL DEFAULT false,
    "publishedAt" TIMESTAMP(3),
    "createdBy" TEXT,
    "modifiedBy" TEXT,
    "createdByUserId" UUID,
    "modifiedByUserId" UUID,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Website_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebsiteImage" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "websiteId" UUID NOT NULL,
    "storageKey" VARCHAR(500) NOT NULL,
    "fileName" VARCHAR(255),
    "position" INTEGER NOT NULL DEFAULT 0,
    "createdBy" TEXT,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebsiteImage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "url" VARCHAR(2000) NOT NULL,
    "description" VARCHAR(500),
    "eventTypes" TEXT[],
    "enabled" BOOLEAN NOT NULL DEFAULT true,
    "disabledReason" VARCHAR(500),
    "disabledAt" TIMESTAMP(3),
    "secret" VARCHAR(200) NOT NULL,
    "previousSecret" VARCHAR(200),
    "previousSecretExpiresAt" TIMESTAMP(3),
    "failingSince" TIMESTAMP(3),
    "createdBy" TEXT,
    "modifiedBy" TEXT,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookMessage" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "type" VARCHAR(100) NOT NULL,
    "payload" JSONB NOT NULL,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "WebhookMessage_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookDelivery" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "endpointId" UUID NOT NULL,
    "messageId" UUID NOT NULL,
    "status" VARCHAR(20) NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "lastResponseCode" INTEGER,
    "lastDurationMs" INTEGER,
    "lastError" VARCHAR(1000),
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateDelivered" TIMESTAMP(3),

    CONSTRAINT "WebhookDelivery_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "WebhookAttempt" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "deliveryId" UUID NOT NULL,
    "attemptedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "responseCode" INTEGER,
    "durationMs" INTEGER NOT NULL,
    "error" VARCHAR(1000),

    CONSTRAINT "WebhookAttempt_pkey" PRIMARY KEY ("id")
);

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

-- CreateIndex
CREATE INDEX "Event_tenantId_startsAt_idx" ON "Event"("tenantId", "startsAt");

-- CreateIndex
CREATE INDEX "Event_tenantId_dateCreated_idx" ON "Event"("tenantId", "dateCreated");

-- CreateIndex
CREATE INDEX "Event_tenantId_categoryId_idx" ON "Event"("tenantId", "categoryId");

-- CreateIndex
CREATE INDEX "Event_tenantId_published_startsAt_idx" ON "Event"("tenantId", "published", "startsAt");

-- CreateIndex
CREATE INDEX "EventTag_tenantId_entryId_idx" ON "EventTag"("tenantId", "entryId");

-- CreateIndex
CREATE INDEX "EventWebsite_tenantId_websiteId_eventId_idx" ON "EventWebsite"("tenantId", "websiteId", "eventId");

-- CreateIndex
CREATE INDEX "EventFile_tenantId_eventId_dateCreated_idx" ON "EventFile"("tenantId", "eventId", "dateCreated");

-- CreateIndex
CREATE INDEX "EventFile_eventId_idx" ON "EventFile"("eventId");

-- CreateIndex
CREATE INDEX "EventImage_tenantId_eventId_position_idx" ON "EventImage"("tenantId", "eventId", "position");

-- CreateIndex
CREATE INDEX "EventImage_eventId_idx" ON "EventImage"("eventId");

-- CreateIndex
CREATE INDEX "EventSettingsEntry_tenantId_list_position_idx" ON "EventSettingsEntry"("tenantId", "list", "position");

-- CreateIndex
CREATE UNIQUE INDEX "EventSettingsEntry_tenantId_list_text_key" ON "EventSettingsEntry"("tenantId", "list", "text");

-- CreateIndex
CREATE INDEX "ContactPersonTemplate_tenantId_name_idx" ON "ContactPersonTemplate"("tenantId", "name");

-- CreateIndex
CREATE UNIQUE INDEX "Website_urlKey_key" ON "Website"("urlKey");

-- CreateIndex
CREATE INDEX "Website_tenantId_name_idx" ON "Website"("tenantId", "name");

-- CreateIndex
CREATE INDEX "Website_tenantId_dateCreated_idx" ON "Website"("tenantId", "dateCreated");

-- CreateIndex
CREATE INDEX "WebsiteImage_tenantId_websiteId_position_idx" ON "WebsiteImage"("tenantId", "websiteId", "position");

-- CreateIndex
CREATE INDEX "WebsiteImage_websiteId_idx" ON "WebsiteImage"("websiteId");

-- CreateIndex
CREATE INDEX "WebhookEndpoint_tenantId_dateCreated_idx" ON "WebhookEndpoint"("tenantId", "dateCreated");

-- CreateIndex
CREATE INDEX "WebhookMessage_tenantId_dateCreated_idx" ON "WebhookMessage"("tenantId", "dateCreated");

-- CreateIndex
CREATE INDEX "WebhookDelivery_tenantId_endpointId_dateCreated_idx" ON "WebhookDelivery"("tenantId", "endpointId", "dateCreated");

-- CreateIndex
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookDelivery_endpointId_messageId_key" ON "WebhookDelivery"("endpointId", "messageId");

-- CreateIndex
CREATE INDEX "WebhookAttempt_deliveryId_attemptedAt_idx" ON "WebhookAttempt"("deliveryId", "attemptedAt");

-- CreateIndex
CREATE INDEX "OutboxEvent_publishedAt_dateCreated_idx" ON "OutboxEvent"("publishedAt", "dateCreated");

-- AddForeignKey
ALTER TABLE "EventTag" ADD CONSTRAINT "EventTag_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EventTag" ADD CONSTRAINT "EventTag_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "EventSettingsEntry"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EventWebsite" ADD CONSTRAINT "EventWebsite_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EventWebsite" ADD CONSTRAINT "EventWebsite_websiteId_fkey" FOREIGN KEY ("websiteId") REFERENCES "Website"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EventFile" ADD CONSTRAINT "EventFile_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "EventImage" ADD CONSTRAINT "EventImage_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "Event"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebsiteImage" ADD CONSTRAINT "WebsiteImage_websiteId_fkey" FOREIGN KEY ("websiteId") REFERENCES "Website"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_endpointId_fkey" FOREIGN KEY ("endpointId") REFERENCES "WebhookEndpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_messageId_fkey" FOREIGN KEY ("messageId") REFERENCES "WebhookMessage"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookAttempt" ADD CONSTRAINT "WebhookAttempt_deliveryId_fkey" FOREIGN KEY ("deliveryId") REFERENCES "WebhookDelivery"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Texts of the settings entries are unique per tenant and list ignoring case (as in the CRM
-- services): tags named by text are created with INSERT ... ON CONFLICT DO NOTHING against this
-- index, without a per-tenant lock. An index on an expression cannot be written in schema.prisma.
-- No semicolons in these comments: the migrate engine splits the script at every one.
CREATE UNIQUE INDEX "EventSettingsEntry_tenantId_list_lower_text_key" ON "EventSettingsEntry" ("tenantId", "list", lower("text"));
