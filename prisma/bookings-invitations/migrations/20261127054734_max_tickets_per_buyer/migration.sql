-- AlterTable
ALTER TABLE "EventCopy" ADD COLUMN     "maxTicketsPerBuyer" INTEGER;


-- The tickets of one booker e-mail for an event (the limit per buyer), found in any case.
CREATE INDEX "Booking_buyer_idx" ON "Booking" ("tenantId", "eventId", lower("bookerEmail"));
