-- AlterTable
ALTER TABLE "EventSigningKey" DROP CONSTRAINT "EventSigningKey_pkey",
ADD COLUMN     "retiredAt" TIMESTAMP(3),
ADD CONSTRAINT "EventSigningKey_pkey" PRIMARY KEY ("tenantId", "eventId", "keyId");


-- Exactly one current key per event (the rows kept stay current: each event had one key). A
-- rotation retires the current key and inserts the next in one transaction, and inserts of a first
-- key name this index in ON CONFLICT, so concurrent first ticket types agree on one key.
CREATE UNIQUE INDEX "EventSigningKey_current_key" ON "EventSigningKey"("tenantId", "eventId") WHERE "retiredAt" IS NULL;
