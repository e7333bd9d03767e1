-- AlterTable
ALTER TABLE "Mail" ADD COLUMN     "headers" JSONB;

