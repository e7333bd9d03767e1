import { randomBytes } from 'node:crypto';

let lastMs = 0;
let counter = 0;

/**
 * A time-ordered UUID (version 7, RFC 9562) that is also monotonic within one process: ids of
 * events written in the same millisecond (one transaction) sort in the order they were made.
 * The outbox orders rows by (dateCreated, id), and dateCreated is the same for a transaction.
 */
export function uuidv7(now = Date.now()): string {
  if (now <= lastMs) {
    counter++;
    if (counter > 0xfff) {
      // 4096 ids in one millisecond: borrow the next millisecond, order is kept.
      lastMs++;
      counter = 0;
    }
  } else {
    lastMs = now;
    counter = 0;
  }
  const b = randomBytes(16);
  const ms = lastMs;
  b[0] = Math.floor(ms / 2 ** 40) & 0xff;
  b[1] = Math.floor(ms / 2 ** 32) & 0xff;
  b[2] = (ms >>> 24) & 0xff;
  b[3] = (ms >>> 16) & 0xff;
  b[4] = (ms >>> 8) & 0xff;
  b[5] = ms & 0xff;
  b[6] = 0x70 | ((counter >>> 8) & 0x0f);
  b[7] = counter & 0xff;
  b[8] = 0x80 | (b[8] & 0x3f);
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
