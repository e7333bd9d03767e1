-- AlterTable
ALTER TABLE "WebhookMessage" ADD COLUMN     "headers" JSONB;

