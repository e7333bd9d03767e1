-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "PersonTagKind" AS ENUM ('ORGA', 'PERSONALITY');

-- CreateEnum
CREATE TYPE "PeopleSettingsList" AS ENUM ('PROPERTY_ENTRIES', 'PERSONALITY_TAGS', 'ORGA_TAGS', 'ADDRESS_TYPES', 'LIFECYCLES', 'MANAGER_ROLES', 'COMPANY_RELATION_TYPES');

-- CreateTable
CREATE TABLE "Person" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "salutation" TEXT,
    "title" VARCHAR(200),
    "firstname" VARCHAR(200),
    "lastname" VARCHAR(200),
    "birthday" DATE,
    "considerBirthYear" BOOLEAN,
    "importantDates" JSONB NOT NULL DEFAULT '[]',
    "socialMedias" JSONB NOT NULL DEFAULT '[]',
    "customerNumber" VARCHAR(200),
    "userMail" TEXT,
    "employeeStatus" TEXT,
    "employeeNumber" TEXT,
    "userId" UUID,
    "lifecycleId" UUID,
    "lifecycleChanged" TIMESTAMP(3),
    "profileImage" TEXT,
    "createdBy" TEXT,
    "modifiedBy" TEXT,
    "createdByUserId" UUID,
    "modifiedByUserId" UUID,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Person_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PersonNote" (
    "personId" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "note" VARCHAR(10000),
    "createdBy" TEXT,
    "modifiedBy" TEXT,
    "createdByUserId" UUID,
    "modifiedByUserId" UUID,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PersonNote_pkey" PRIMARY KEY ("personId")
);

-- CreateTable
CREATE TABLE "PersonTag" (
    "tenantId" TEXT NOT NULL,
    "personId" UUID NOT NULL,
    "entryId" UUID NOT NULL,
    "kind" "PersonTagKind" NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "PersonTag_pkey" PRIMARY KEY ("personId","kind","entryId")
);

-- CreateTable
CREATE TABLE "LifecycleHistory" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "personId" UUID NOT NULL,
    "lifecycleId" UUID NOT NULL,
    "dateChanged" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LifecycleHistory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SettingsEntry" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "list" "PeopleSettingsList" NOT NULL,
    "text" VARCHAR(200) NOT NULL,
    "color" VARCHAR(20),
    "category" VARCHAR(200),
    "position" INTEGER NOT NULL DEFAULT 0,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SettingsEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "BusinessCard" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "personId" UUID NOT NULL,
    "isPrivate" BOOLEAN NOT NULL DEFAULT false,
    "alternativeSalutation" TEXT,
    "alternativeTitle" VARCHAR(200),
    "alternativeFirstname" VARCHAR(200),
    "alternativeLastname" VARCHAR(200),
    "useAlternativeName" BOOLEAN NOT NULL DEFAULT false,
    "companyId" UUID,
    "business" TEXT,
    "companyRelationTypeId" UUID,
    "companyRelationSince" TIMESTAMP(3),
    "companyRelationUntil" TIMESTAMP(3),
    "validFrom" TIMESTAMP(3),
    "validTo" TIMESTAMP(3),
    "phones" JSONB NOT NULL DEFAULT '[]',
    "emails" JSONB NOT NULL DEFAULT '[]',
    "businessPositions" JSONB NOT NULL DEFAULT '[]',
    "isFavorite" BOOLEAN NOT NULL DEFAULT false,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "markAsFavorite" BOOLEAN NOT NULL DEFAULT false,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "BusinessCard_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CardAddress" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "cardId" UUID NOT NULL,
    "isFavorite" BOOLEAN NOT NULL DEFAULT false,
    "addressTypeIds" UUID[],
    "country" TEXT,
    "countryCode" VARCHAR(3),
    "street" TEXT,
    "streetAdditional" TEXT,
    "zip" TEXT,
    "city" TEXT,
    "postboxNumber" TEXT,
    "federalState" TEXT,
    "cityDistrict" TEXT,
    "cityAddition" TEXT,
    "longitude" DOUBLE PRECISION,
    "latitude" DOUBLE PRECISION,
    "validationInfo" JSONB,
    "isPostOfficeBox" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "CardAddress_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PersonRelation" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "fromPersonId" UUID NOT NULL,
    "toPersonId" UUID NOT NULL,
    "typeIdentifier" TEXT NOT NULL,
    "isFavorite" BOOLEAN NOT NULL DEFAULT false,
    "inverseId" UUID,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "PersonRelation_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Person_tenantId_lastname_firstname_idx" ON "Person"("tenantId", "lastname", "firstname");

-- CreateIndex
CREATE INDEX "Person_tenantId_dateCreated_idx" ON "Person"("tenantId", "dateCreated");

-- CreateIndex
CREATE INDEX "Person_tenantId_employeeStatus_idx" ON "Person"("tenantId", "employeeStatus");

-- CreateIndex
CREATE INDEX "PersonNote_tenantId_idx" ON "PersonNote"("tenantId");

-- CreateIndex
CREATE INDEX "PersonTag_tenantId_entryId_idx" ON "PersonTag"("tenantId", "entryId");

-- CreateIndex
CREATE INDEX "LifecycleHistory_tenantId_personId_dateChanged_idx" ON "LifecycleHistory"("tenantId", "personId", "dateChanged");

-- CreateIndex
CREATE INDEX "SettingsEntry_tenantId_list_position_idx" ON "SettingsEntry"("tenantId", "list", "position");

-- CreateIndex
CREATE UNIQUE INDEX "SettingsEntry_tenantId_list_text_key" ON "SettingsEntry"("tenantId", "list", "text");

-- CreateIndex
CREATE INDEX "BusinessCard_tenantId_personId_idx" ON "BusinessCard"("tenantId", "personId");

-- CreateIndex
CREATE INDEX "BusinessCard_tenantId_companyId_idx" ON "BusinessCard"("tenantId", "companyId");

-- CreateIndex
CREATE INDEX "CardAddress_tenantId_cardId_idx" ON "CardAddress"("tenantId", "cardId");

-- CreateIndex
CREATE INDEX "PersonRelation_tenantId_toPersonId_idx" ON "PersonRelation"("tenantId", "toPersonId");

-- CreateIndex
CREATE UNIQUE INDEX "PersonRelation_tenantId_fromPersonId_toPersonId_typeIdentif_key" ON "PersonRelation"("tenantId", "fromPersonId", "toPersonId", "typeIdentifier");

-- AddForeignKey
ALTER TABLE "PersonNote" ADD CONSTRAINT "PersonNote_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonTag" ADD CONSTRAINT "PersonTag_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonTag" ADD CONSTRAINT "PersonTag_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "SettingsEntry"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LifecycleHistory" ADD CONSTRAINT "LifecycleHistory_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "BusinessCard" ADD CONSTRAINT "BusinessCard_personId_fkey" FOREIGN KEY ("personId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CardAddress" ADD CONSTRAINT "CardAddress_cardId_fkey" FOREIGN KEY ("cardId") REFERENCES "BusinessCard"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonRelation" ADD CONSTRAINT "PersonRelation_fromPersonId_fkey" FOREIGN KEY ("fromPersonId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PersonRelation" ADD CONSTRAINT "PersonRelation_toPersonId_fkey" FOREIGN KEY ("toPersonId") REFERENCES "Person"("id") ON DELETE CASCADE ON UPDATE CASCADE;

