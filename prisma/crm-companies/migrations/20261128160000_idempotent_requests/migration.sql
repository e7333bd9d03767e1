-- Keyed POSTs carried out once: the Idempotency-Key, the fingerprint of its request and the answer,
-- written in the request's own transaction (libs/persistence/src/idempotent-requests.ts)
CREATE TABLE "IdempotentRequest" (
    "tenantId" TEXT NOT NULL,
    "key" VARCHAR(200) NOT NULL,
    "fingerprint" CHAR(64) NOT NULL,
    "status" INTEGER,
    "headers" JSONB,
    "body" BYTEA,
    "dateCreated" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "IdempotentRequest_pkey" PRIMARY KEY ("tenantId","key")
);

CREATE INDEX "IdempotentRequest_dateCreated_idx" ON "IdempotentRequest"("dateCreated");

SELECT crm_tenant_rows('IdempotentRequest');
