-- AlterTable
ALTER TABLE "EventCopy" ADD COLUMN     "websiteLinks" JSONB;

