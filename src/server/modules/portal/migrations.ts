/**
 * The portal module's own table (issue 14 "access statistics"), applied as `portal/0001_access` after the
 * core's. The portal's resources (content, channels, models, comments, sites) are schema tables.
 *
 * `portal_access`: one row per public page served (public.ts): tenant, site, the page kind (home, channel,
 * article, search), the channel and content shown, the referrer's host (empty for none or the same site), the
 * day; `getDashboard` sums them per day, channel, content and referrer. Indexed by (tenant_id, day).
 */
import { sql, type Kysely } from 'kysely';

async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE TABLE portal_access (
  id bigserial PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  site_id bigint NOT NULL,
  page varchar(16) NOT NULL,
  channel_id bigint,
  content_id bigint,
  referrer varchar(200) NOT NULL DEFAULT '',
  day date NOT NULL DEFAULT current_date,
  create_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX portal_access_day ON portal_access (tenant_id, day);
`).execute(db);
}

async function down(db: Kysely<any>): Promise<void> {
  await sql.raw('DROP TABLE IF EXISTS portal_access').execute(db);
}

export const migrations = { '0001_access': { up, down } };
