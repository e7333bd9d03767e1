-- CreateTable
CREATE TABLE "Touchpoint" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "type" VARCHAR(50) NOT NULL,
    "subject" VARCHAR(200) NOT NULL,
    "description" VARCHAR(10000),
    "start" TIMESTAMP(3) NOT NULL,
    "end" TIMESTAMP(3),
    "companyId" UUID,
    "priority" INTEGER NOT NULL DEFAULT 3,
    "createdBy" TEXT,
    "modifiedBy" TEXT,
    "createdByUserId" UUID,
    "modifiedByUserId" UUID,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Touchpoint_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TouchpointPerson" (
    "tenantId" TEXT NOT NULL,
    "touchpointId" UUID NOT NULL,
    "personId" UUID NOT NULL,

    CONSTRAINT "TouchpointPerson_pkey" PRIMARY KEY ("touchpointId","personId")
);

-- CreateTable
CREATE TABLE "TouchpointMood" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "touchpointId" UUID NOT NULL,
    "mood" VARCHAR(20) NOT NULL,
    "comment" VARCHAR(1000),
    "createdBy" TEXT,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "TouchpointMood_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "TouchpointTag" (
    "tenantId" TEXT NOT NULL,
    "touchpointId" UUID NOT NULL,
    "entryId" UUID NOT NULL,

    CONSTRAINT "TouchpointTag_pkey" PRIMARY KEY ("touchpointId","entryId")
);

-- CreateTable
CREATE TABLE "PersonDocument" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "personId" UUID NOT NULL,
    "fileName" VARCHAR(255) NOT NULL,
    "contentType" VARCHAR(200) NOT NULL,
    "size" INTEGER NOT NULL,
    "storageKey" VARCHAR(500) NOT NULL,
    "createdBy" TEXT,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PersonDocument_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "Touchpoint_tenantId_start_idx" ON "Touchpoint"("tenantId", "start");

-- CreateIndex
CREATE INDEX "Touchpoint_tenantId_companyId_idx" ON "Touchpoint"("tenantId", "companyId");

-- CreateIndex
CREATE INDEX "TouchpointPerson_tenantId_personId_idx" ON "TouchpointPerson"("tenantId", "personId");

-- CreateIndex
CREATE INDEX "TouchpointMood_tenantId_touchpointId_dateCreated_idx" ON "TouchpointMood"("tenantId", "touchpointId", "dateCreated");

-- CreateIndex
CREATE INDEX "TouchpointTag_tenantId_entryId_idx" ON "TouchpointTag"("tenantId", "entryId");

-- CreateIndex
CREATE INDEX "PersonDocument_tenantId_personId_dateCreated_idx" ON "PersonDocument"("tenantId", "personId", "dateCreated");

-- CreateIndex
CREATE INDEX "OutboxEvent_publishedAt_dateCreated_idx" ON "OutboxEvent"("publishedAt", "dateCreated");

-- AddForeignKey
ALTER TABLE "TouchpointPerson" ADD CONSTRAINT "TouchpointPerson_touchpointId_fkey" FOREIGN KEY ("touchpointId") REFERENCES "Touchpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TouchpointPerson" ADD CONSTRAINT "TouchpointPerson_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TouchpointMood" ADD CONSTRAINT "TouchpointMood_touchpointId_fkey" FOREIGN KEY ("touchpointId") REFERENCES "Touchpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TouchpointTag" ADD CONSTRAINT "TouchpointTag_touchpointId_fkey" FOREIGN KEY ("touchpointId") REFERENCES "Touchpoint"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "TouchpointTag" ADD CONSTRAINT "TouchpointTag_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "SettingsEntry"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonDocument" ADD CONSTRAINT "PersonDocument_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

