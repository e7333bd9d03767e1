-- AlterTable
CREATE SEQUENCE waitinglistentry_rank_seq;
ALTER TABLE "WaitingListEntry" ALTER COLUMN "rank" SET DEFAULT nextval('waitinglistentry_rank_seq');
ALTER SEQUENCE waitinglistentry_rank_seq OWNED BY "WaitingListEntry"."rank";

