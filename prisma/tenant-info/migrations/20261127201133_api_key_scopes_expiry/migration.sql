-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "expiresAt" TIMESTAMP(3),
ADD COLUMN     "scopes" TEXT[];

-- Keys issued before scopes existed could do everything: they keep that, written out, so a
-- stored key's scopes are always explicit (read and write of every module the gateway knows).
UPDATE "ApiKey" SET "scopes" = ARRAY[
  'crm:read', 'crm:write', 'events:read', 'events:write',
  'bookings:read', 'bookings:write', 'tenant-info:read', 'tenant-info:write'
];
