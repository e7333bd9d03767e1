-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "CompanySettingsList" AS ENUM ('TAGS', 'EMPLOYEE_COUNTS', 'CUSTOMER_COUNTS', 'LEGAL_FORMS', 'REFERENCE_NUMBER_TYPES', 'INDUSTRY_SECTORS', 'RELATION_TYPES', 'LIFECYCLES', 'EMAIL_TYPES');

-- CreateTable
CREATE TABLE "Company" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "name" VARCHAR(200) NOT NULL,
    "nameAddition" VARCHAR(200),
    "website" VARCHAR(500),
    "websiteDomain" VARCHAR(255),
    "customerNumber" VARCHAR(200),
    "vatId" VARCHAR(50),
    "taxNumber" VARCHAR(50),
    "foundingDate" DATE,
    "legalFormId" UUID,
    "industrySectorId" UUID,
    "employeeCountId" UUID,
    "customerCountId" UUID,
    "referenceNumbers" JSONB NOT NULL DEFAULT '[]',
    "socialMedias" JSONB NOT NULL DEFAULT '[]',
    "lifecycleId" UUID,
    "lifecycleChanged" TIMESTAMP(3),
    "logo" VARCHAR(500),
    "logoDateModified" TIMESTAMP(3),
    "createdBy" TEXT,
    "modifiedBy" TEXT,
    "createdByUserId" UUID,
    "modifiedByUserId" UUID,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Company_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompanyNote" (
    "companyId" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "note" VARCHAR(10000),
    "createdBy" TEXT,
    "modifiedBy" TEXT,
    "createdByUserId" UUID,
    "modifiedByUserId" UUID,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CompanyNote_pkey" PRIMARY KEY ("companyId")
);

-- CreateTable
CREATE TABLE "CompanyTag" (
    "tenantId" TEXT NOT NULL,
    "companyId" UUID NOT NULL,
    "entryId" UUID NOT NULL,
    "position" INTEGER NOT NULL,

    CONSTRAINT "CompanyTag_pkey" PRIMARY KEY ("companyId","entryId")
);

-- CreateTable
CREATE TABLE "CompanyLifecycleHistory" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "companyId" UUID NOT NULL,
    "lifecycleId" UUID NOT NULL,
    "dateChanged" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CompanyLifecycleHistory_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompanyAddress" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "companyId" UUID NOT NULL,
    "isFavorite" BOOLEAN NOT NULL DEFAULT false,
    "type" VARCHAR(50),
    "country" VARCHAR(200),
    "countryCode" VARCHAR(2),
    "street" VARCHAR(200),
    "streetAdditional" VARCHAR(200),
    "zip" VARCHAR(20),
    "city" VARCHAR(200),
    "postboxNumber" VARCHAR(50),
    "federalState" VARCHAR(200),
    "cityDistrict" VARCHAR(200),
    "isPostOfficeBox" BOOLEAN NOT NULL DEFAULT false,
    "longitude" DOUBLE PRECISION,
    "latitude" DOUBLE PRECISION,
    "position" INTEGER NOT NULL DEFAULT 0,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CompanyAddress_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompanyPhone" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "companyId" UUID NOT NULL,
    "type" VARCHAR(50) NOT NULL DEFAULT 'office',
    "number" VARCHAR(30) NOT NULL,
    "label" VARCHAR(200),
    "isFavorite" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CompanyPhone_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompanyEmail" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "companyId" UUID NOT NULL,
    "email" VARCHAR(320) NOT NULL,
    "domain" VARCHAR(255) NOT NULL,
    "emailTypeId" UUID,
    "isFavorite" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CompanyEmail_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompanyBankAccount" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "companyId" UUID NOT NULL,
    "iban" VARCHAR(34) NOT NULL,
    "bic" VARCHAR(11),
    "bankName" VARCHAR(200),
    "accountHolder" VARCHAR(200),
    "isFavorite" BOOLEAN NOT NULL DEFAULT false,
    "position" INTEGER NOT NULL DEFAULT 0,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CompanyBankAccount_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompanyDocument" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "companyId" UUID NOT NULL,
    "fileName" VARCHAR(255) NOT NULL,
    "contentType" VARCHAR(200) NOT NULL,
    "size" INTEGER NOT NULL,
    "storageKey" VARCHAR(500) NOT NULL,
    "createdBy" TEXT,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CompanyDocument_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompanyRelation" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "fromCompanyId" UUID NOT NULL,
    "toCompanyId" UUID NOT NULL,
    "relationTypeId" UUID NOT NULL,
    "since" TIMESTAMP(3),
    "until" TIMESTAMP(3),
    "note" VARCHAR(1000),
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CompanyRelation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompanyManager" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "companyId" UUID NOT NULL,
    "personId" UUID NOT NULL,
    "managerRoleId" UUID NOT NULL,
    "since" TIMESTAMP(3),
    "until" TIMESTAMP(3),
    "createdBy" TEXT,
    "modifiedBy" TEXT,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "dateModified" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "CompanyManager_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "CompanySettingsEntry" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "list" "CompanySettingsList" NOT NULL,
    "text" VARCHAR(200) NOT NULL,
    "color" VARCHAR(20),
    "category" VARCHAR(200),
    "position" INTEGER NOT NULL DEFAULT 0,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CompanySettingsEntry_pkey" PRIMARY KEY ("id")
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
CREATE INDEX "Company_tenantId_name_idx" ON "Company"("tenantId", "name");

-- CreateIndex
CREATE INDEX "Company_tenantId_dateCreated_idx" ON "Company"("tenantId", "dateCreated");

-- CreateIndex
CREATE INDEX "Company_tenantId_websiteDomain_idx" ON "Company"("tenantId", "websiteDomain");

-- CreateIndex
CREATE INDEX "Company_tenantId_lifecycleId_idx" ON "Company"("tenantId", "lifecycleId");

-- CreateIndex
CREATE INDEX "CompanyNote_tenantId_idx" ON "CompanyNote"("tenantId");

-- CreateIndex
CREATE INDEX "CompanyTag_tenantId_entryId_idx" ON "CompanyTag"("tenantId", "entryId");

-- CreateIndex
CREATE INDEX "CompanyLifecycleHistory_tenantId_companyId_dateChanged_idx" ON "CompanyLifecycleHistory"("tenantId", "companyId", "dateChanged");

-- CreateIndex
CREATE INDEX "CompanyAddress_companyId_position_idx" ON "CompanyAddress"("companyId", "position");

-- CreateIndex
CREATE INDEX "CompanyAddress_tenantId_companyId_idx" ON "CompanyAddress"("tenantId", "companyId");

-- CreateIndex
CREATE INDEX "CompanyPhone_companyId_position_idx" ON "CompanyPhone"("companyId", "position");

-- CreateIndex
CREATE INDEX "CompanyPhone_tenantId_companyId_idx" ON "CompanyPhone"("tenantId", "companyId");

-- CreateIndex
CREATE INDEX "CompanyEmail_companyId_position_idx" ON "CompanyEmail"("companyId", "position");

-- CreateIndex
CREATE INDEX "CompanyEmail_tenantId_domain_idx" ON "CompanyEmail"("tenantId", "domain");

-- CreateIndex
CREATE INDEX "CompanyEmail_tenantId_emailTypeId_idx" ON "CompanyEmail"("tenantId", "emailTypeId");

-- CreateIndex
CREATE INDEX "CompanyBankAccount_tenantId_companyId_idx" ON "CompanyBankAccount"("tenantId", "companyId");

-- CreateIndex
CREATE UNIQUE INDEX "CompanyBankAccount_companyId_iban_key" ON "CompanyBankAccount"("companyId", "iban");

-- CreateIndex
CREATE INDEX "CompanyDocument_tenantId_companyId_dateCreated_idx" ON "CompanyDocument"("tenantId", "companyId", "dateCreated");

-- CreateIndex
CREATE INDEX "CompanyDocument_companyId_idx" ON "CompanyDocument"("companyId");

-- CreateIndex
CREATE INDEX "CompanyRelation_fromCompanyId_idx" ON "CompanyRelation"("fromCompanyId");

-- CreateIndex
CREATE INDEX "CompanyRelation_toCompanyId_idx" ON "CompanyRelation"("toCompanyId");

-- CreateIndex
CREATE INDEX "CompanyRelation_tenantId_relationTypeId_idx" ON "CompanyRelation"("tenantId", "relationTypeId");

-- CreateIndex
CREATE UNIQUE INDEX "CompanyRelation_tenantId_fromCompanyId_toCompanyId_relation_key" ON "CompanyRelation"("tenantId", "fromCompanyId", "toCompanyId", "relationTypeId");

-- CreateIndex
CREATE INDEX "CompanyManager_tenantId_personId_idx" ON "CompanyManager"("tenantId", "personId");

-- CreateIndex
CREATE INDEX "CompanyManager_tenantId_managerRoleId_idx" ON "CompanyManager"("tenantId", "managerRoleId");

-- CreateIndex
CREATE UNIQUE INDEX "CompanyManager_companyId_personId_managerRoleId_key" ON "CompanyManager"("companyId", "personId", "managerRoleId");

-- CreateIndex
CREATE INDEX "CompanySettingsEntry_tenantId_list_position_idx" ON "CompanySettingsEntry"("tenantId", "list", "position");

-- CreateIndex
CREATE UNIQUE INDEX "CompanySettingsEntry_tenantId_list_text_key" ON "CompanySettingsEntry"("tenantId", "list", "text");

-- CreateIndex
CREATE INDEX "OutboxEvent_publishedAt_dateCreated_idx" ON "OutboxEvent"("publishedAt", "dateCreated");

-- AddForeignKey
ALTER TABLE "CompanyNote" ADD CONSTRAINT "CompanyNote_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyTag" ADD CONSTRAINT "CompanyTag_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyTag" ADD CONSTRAINT "CompanyTag_entryId_fkey" FOREIGN KEY ("entryId") REFERENCES "CompanySettingsEntry"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyLifecycleHistory" ADD CONSTRAINT "CompanyLifecycleHistory_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyAddress" ADD CONSTRAINT "CompanyAddress_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyPhone" ADD CONSTRAINT "CompanyPhone_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyEmail" ADD CONSTRAINT "CompanyEmail_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyBankAccount" ADD CONSTRAINT "CompanyBankAccount_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyDocument" ADD CONSTRAINT "CompanyDocument_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyRelation" ADD CONSTRAINT "CompanyRelation_fromCompanyId_fkey" FOREIGN KEY ("fromCompanyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyRelation" ADD CONSTRAINT "CompanyRelation_toCompanyId_fkey" FOREIGN KEY ("toCompanyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "CompanyManager" ADD CONSTRAINT "CompanyManager_companyId_fkey" FOREIGN KEY ("companyId") REFERENCES "Company"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- C1 `q`: trigram search over what identifies a company (name, addition, customer number,
-- website domain), as one text so "acme berlin" matches across fields. The expression is spelled
-- out (no function) because PostgreSQL 17+ evaluates index expressions with a restricted
-- search_path. Queries must repeat it exactly to use the index.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS btree_gin;
CREATE INDEX "Company_search_idx" ON "Company" USING gin (
  "tenantId",
  (lower(coalesce("name", '') || ' ' || coalesce("nameAddition", '') || ' ' || coalesce("customerNumber", '') || ' ' || coalesce("websiteDomain", ''))) gin_trgm_ops
);
