-- AlterTable
ALTER TABLE "Website" ADD COLUMN     "invitationLinkTemplate" VARCHAR(500);

