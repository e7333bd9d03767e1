-- AlterTable
ALTER TABLE "OutboxEvent" ADD COLUMN     "headers" JSONB;

