-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "maxTicketsPerBuyer" INTEGER;


-- the API's range, kept by the table too
ALTER TABLE "Event" ADD CONSTRAINT "Event_maxTicketsPerBuyer_check" CHECK ("maxTicketsPerBuyer" BETWEEN 1 AND 1000);
