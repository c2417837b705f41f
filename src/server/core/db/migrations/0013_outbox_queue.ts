/**
 * Migration 0013: `kc_outbox` becomes a queue as well as a record (core/outbox-dispatch.ts; issue 11: a step's
 * SMS / e-mail are delivered after its transaction committed). `status` gains 0 (queued) and 3 (being
 * delivered) beside 1 (delivered / stored) and 2 (failed); `update_time` is when the status last changed (a row
 * stuck at 3 past ten minutes is queued again); the partial index finds the queued rows without reading the
 * delivered history.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
ALTER TABLE kc_outbox ADD COLUMN IF NOT EXISTS update_time timestamptz NOT NULL DEFAULT now();
CREATE INDEX IF NOT EXISTS kc_outbox_queued ON kc_outbox (id) WHERE status IN (0, 3);
`).execute(db);
}
