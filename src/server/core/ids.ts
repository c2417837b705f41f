/**
 * Snowflake ids (DESIGN §4): 64-bit, time-ordered, generated without a round trip to the database, and
 * serialised as decimal strings in JSON (they exceed 2^53).
 *
 * Layout (Twitter/Discord style, @sapphire/snowflake): 42 bits of milliseconds since 2020-01-01T00:00:00Z,
 * 5 bits worker id, 5 bits process id, 12 bits sequence. The worker id comes from `WORKER_ID` (0–31), so
 * each API node of a scaled-out deployment (DESIGN §12) gets its own; the process id is the pid mod 32.
 * The library wraps its 12-bit sequence silently; this wrapper guarantees uniqueness by moving to the next
 * millisecond once 4096 ids were handed out in the current one.
 */
import { Snowflake } from '@sapphire/snowflake';

const EPOCH = Date.UTC(2020, 0, 1);
const snowflake = new Snowflake(EPOCH);
const workerId = BigInt(Number(process.env.WORKER_ID ?? 0) & 31);
const processId = BigInt(process.pid & 31);

let lastMs = 0;
let seq = 0;

/** A new snowflake id as a decimal string, e.g. "1234567890123456789". */
export function nextId(): string {
  let now = Date.now();
  if (now < lastMs) now = lastMs; // clock moved back: keep ids monotonic
  if (now === lastMs) {
    seq += 1;
    if (seq > 4095) {
      while (Date.now() <= lastMs) {
        /* wait for the next millisecond */
      }
      now = Date.now();
      seq = 0;
    }
  } else {
    seq = 0;
  }
  lastMs = now;
  return snowflake.generate({ timestamp: now, increment: BigInt(seq), workerId, processId }).toString();
}
