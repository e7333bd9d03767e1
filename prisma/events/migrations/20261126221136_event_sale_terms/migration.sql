-- AlterTable
ALTER TABLE "Event" ADD COLUMN     "holdMinutes" INTEGER NOT NULL DEFAULT 15,
ADD COLUMN     "paymentDeadlineHours" INTEGER,
ADD COLUMN     "paymentReminderHours" INTEGER;


-- the API's ranges, kept by the table too (a value outside them is a bug, not a setting)
ALTER TABLE "Event" ADD CONSTRAINT "Event_holdMinutes_check" CHECK ("holdMinutes" BETWEEN 1 AND 1440);
ALTER TABLE "Event" ADD CONSTRAINT "Event_paymentDeadlineHours_check" CHECK ("paymentDeadlineHours" BETWEEN 1 AND 8760);
ALTER TABLE "Event" ADD CONSTRAINT "Event_paymentReminderHours_check"
  CHECK ("paymentReminderHours" IS NULL
    OR ("paymentDeadlineHours" IS NOT NULL AND "paymentReminderHours" BETWEEN 1 AND "paymentDeadlineHours" - 1));
