-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "waitingListOfferMinutes" INTEGER NOT NULL DEFAULT 1440;



-- the API's range, kept by the table too
ALTER TABLE "Event" ADD CONSTRAINT "Event_waitingListOfferMinutes_check" CHECK ("waitingListOfferMinutes" BETWEEN 1 AND 10080);
