-- CreateTable
CREATE TABLE "SalesLease" (
    "tenantId" TEXT NOT NULL,
    "owner" VARCHAR(100) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SalesLease_pkey" PRIMARY KEY ("tenantId")
);

