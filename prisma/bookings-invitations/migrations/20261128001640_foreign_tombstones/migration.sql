-- CreateTable
CREATE TABLE "Tombstone" (
    "tenantId" TEXT NOT NULL,
    "kind" VARCHAR(20) NOT NULL,
    "id" UUID NOT NULL,
    "deletedAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Tombstone_pkey" PRIMARY KEY ("tenantId","kind","id")
);

