-- CreateTable
CREATE TABLE "CreditNoteCounter" (
    "tenantId" TEXT NOT NULL,
    "year" INTEGER NOT NULL,
    "last" INTEGER NOT NULL,

    CONSTRAINT "CreditNoteCounter_pkey" PRIMARY KEY ("tenantId","year")
);

-- CreateTable
CREATE TABLE "CreditNote" (
    "id" UUID NOT NULL,
    "tenantId" TEXT NOT NULL,
    "bookingId" UUID NOT NULL,
    "eventId" UUID NOT NULL,
    "number" VARCHAR(50) NOT NULL,
    "year" INTEGER NOT NULL,
    "issuedAt" TIMESTAMP(3) NOT NULL,
    "invoiceNumber" VARCHAR(50) NOT NULL,
    "currency" CHAR(3) NOT NULL,
    "language" VARCHAR(10) NOT NULL,
    "bookerFirstname" VARCHAR(200) NOT NULL,
    "bookerLastname" VARCHAR(200) NOT NULL,
    "bookerEmail" VARCHAR(320) NOT NULL,
    "reason" VARCHAR(50) NOT NULL,
    "totalNet" DECIMAL(12,2) NOT NULL,
    "totalTax" DECIMAL(12,2) NOT NULL,
    "totalGross" DECIMAL(12,2) NOT NULL,
    "feeGross" DECIMAL(12,2) NOT NULL,
    "lines" JSONB NOT NULL,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "CreditNote_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "CreditNote_tenantId_bookingId_issuedAt_idx" ON "CreditNote"("tenantId", "bookingId", "issuedAt");

-- CreateIndex
CREATE UNIQUE INDEX "CreditNote_tenantId_number_key" ON "CreditNote"("tenantId", "number");

