/**
 * Migration 0012: accounts — messages out, SMS codes, third-party identities and the register queue (issue 10;
 * spec 000 §2.6–§2.10, §4, §7; DESIGN §8 'Messages out', 'Social login'; src/server/core/outbox.ts,
 * src/server/modules/system/account.ts).
 *
 * - `kc_outbox`: every SMS and e-mail the platform sends, whatever the provider (the built-in `outbox`
 *   provider only stores; a gateway provider also delivers and records its answer). Administrators read it
 *   (`GET /api/blade-system/outbox/list`). `status` 1 stored/delivered, 2 the gateway failed (`error`).
 * - `kc_sms_code`: one verification code sent to a phone (spec 000 §5 'SMS code … exactly 6 characters';
 *   DESIGN §8 'codes are rate limited and expire'): `id` is the SMS key the client sends back, `code_hash`
 *   the SHA-256 of the code (the text lives only in the outbox message), `purpose` what it may be used for
 *   (login, password, phone, register), `attempts` wrong tries (the 5th burns it), `expires_at` (5 minutes),
 *   `used_at` once consumed. `ticket_hash`/`ticket_expires_at`: the one-time code `validate-message` answers
 *   for update-password-by-smscode (spec 000 §7 'validate SMS code … returns a code').
 * - `blade_user_oauth`: identities from a social source (spec 000 §3.4 'oauth_id'; BladeX `blade_user_oauth`):
 *   `source` + `uuid` per tenant, the user it is bound to (null until an administrator approves the
 *   registration), and what the provider said of the person.
 * - `blade_user.wechat_bound`: the account is bound to the messaging app (onboarding step 1); wechat
 *   log-off (`system/wechatEndpoint/log-off-by-userId`) clears it.
 * - `blade_user.register_status`: 0 an ordinary account; 1 a registration waiting for an administrator
 *   (spec 000 §8 注册申请已提交,请耐心等待管理员通过!); such an account is created disabled (status 0) and
 *   an administrator approves it by enabling it in the user screen.
 */
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE TABLE kc_outbox (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  channel varchar(10) NOT NULL,
  recipient varchar(255) NOT NULL,
  subject varchar(255),
  content varchar(2000) NOT NULL,
  provider varchar(50) NOT NULL,
  status int NOT NULL DEFAULT 1,
  error varchar(500),
  create_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kc_outbox_tenant_time ON kc_outbox (tenant_id, create_time DESC, id DESC);
CREATE INDEX kc_outbox_recipient ON kc_outbox (tenant_id, recipient, create_time DESC);

CREATE TABLE kc_sms_code (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  phone varchar(11) NOT NULL,
  purpose varchar(20) NOT NULL,
  code_hash varchar(64) NOT NULL,
  attempts int NOT NULL DEFAULT 0,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  ticket_hash varchar(64),
  ticket_expires_at timestamptz,
  create_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kc_sms_code_phone ON kc_sms_code (tenant_id, phone, create_time DESC);

CREATE TABLE blade_user_oauth (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  user_id bigint REFERENCES blade_user(id),
  source varchar(50) NOT NULL,
  uuid varchar(255) NOT NULL,
  username varchar(255),
  nickname varchar(255),
  email varchar(255),
  avatar varchar(500),
  create_time timestamptz NOT NULL DEFAULT now(),
  UNIQUE (tenant_id, source, uuid)
);
CREATE INDEX blade_user_oauth_user ON blade_user_oauth (user_id);

ALTER TABLE blade_user ADD COLUMN wechat_bound boolean NOT NULL DEFAULT false;
ALTER TABLE blade_user ADD COLUMN register_status int NOT NULL DEFAULT 0;
`).execute(db);
}
