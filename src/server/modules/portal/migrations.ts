/**
 * The portal module's own table (issue 14 "access statistics"), applied as `portal/0001_access` after the
 * core's, and `portal/0002_model_form`. The portal's resources (content, channels, models, comments, sites) are
 * schema tables.
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

/**
 * `portal/0002_model_form`: content models once listed their extra fields in a `fields` column
 * (`[{attr, label, component, required}]`); they now store one Formily `form` designed in the form designer
 * (shared/portal/model-fields.ts). On a database that has the old column, each model without a form gets the
 * form of its fields — one property per attr (title the label, the same control, a required rule for a
 * required field). A new database has no such column and nothing happens. The old column stays (never read).
 */
export const MODEL_FORM_SQL = `
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = 'portal_model' AND column_name = 'fields') THEN
    ALTER TABLE portal_model ADD COLUMN IF NOT EXISTS form jsonb;
    UPDATE portal_model m SET form = jsonb_build_object('type', 'object', 'properties', coalesce((
        SELECT jsonb_object_agg(f->>'attr', jsonb_strip_nulls(jsonb_build_object(
          'type', CASE WHEN f->>'component' = 'NumberPicker' THEN 'number' ELSE 'string' END,
          'title', coalesce(nullif(f->>'label', ''), f->>'attr'),
          'x-decorator', 'FormItem',
          'x-component', coalesce(nullif(f->>'component', ''), 'Input'),
          'x-validator', CASE WHEN f->>'required' = 'true'
            THEN jsonb_build_array(jsonb_build_object('required', true, 'message', '请填写' || coalesce(nullif(f->>'label', ''), f->>'attr'))) END)))
        FROM jsonb_array_elements(m.fields::jsonb) AS f
        WHERE jsonb_typeof(f) = 'object' AND coalesce(f->>'attr', '') <> ''), '{}'::jsonb))
      WHERE m.form IS NULL AND jsonb_typeof(m.fields::jsonb) = 'array';
  END IF;
END $$;`;

async function modelFormUp(db: Kysely<any>): Promise<void> {
  await sql.raw(MODEL_FORM_SQL).execute(db);
}

export const migrations = { '0001_access': { up, down }, '0002_model_form': { up: modelFormUp } };
