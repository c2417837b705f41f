/**
 * Migration 0001: the core tables of identity, access, configuration, logs and sessions (DESIGN §5).
 *
 * Table and column names follow the original BladeX layout (`blade_*`, snake_case) so that data and
 * reports carry over; tables this rebuild adds are prefixed `kc_`. Business (resource) tables are not
 * here: table sync creates them from the schemas in `schemas/` (DESIGN §4).
 *
 * Every tenant-owned table carries `tenant_id` and every index on it starts with `tenant_id` (DESIGN §12).
 * Logical delete is `is_deleted = 1`.
 */
import { sql, type Kysely } from 'kysely';

const audit = `
  create_user bigint,
  create_dept bigint,
  create_time timestamptz NOT NULL DEFAULT now(),
  update_user bigint,
  update_time timestamptz NOT NULL DEFAULT now(),
  status int NOT NULL DEFAULT 1,
  is_deleted int NOT NULL DEFAULT 0`;

export async function up(db: Kysely<any>): Promise<void> {
  await sql.raw(`
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE TABLE blade_tenant (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL UNIQUE,
  tenant_name varchar(50) NOT NULL,
  domain varchar(255),
  contact_person varchar(20),
  contact_number varchar(20),
  address varchar(255),
  account_number int NOT NULL DEFAULT -1,
  expire_time timestamptz,
  ${audit}
);

CREATE TABLE blade_client (
  id bigint PRIMARY KEY,
  client_id varchar(48) NOT NULL UNIQUE,
  client_secret varchar(256) NOT NULL,
  scope varchar(255) NOT NULL DEFAULT 'all',
  authorized_grant_types varchar(255) NOT NULL,
  access_token_validity int NOT NULL,
  refresh_token_validity int NOT NULL,
  ${audit}
);

CREATE TABLE blade_dept (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  parent_id bigint NOT NULL DEFAULT 0,
  ancestors varchar(2000) NOT NULL DEFAULT '0',
  dept_category int NOT NULL DEFAULT 2,
  dept_name varchar(45) NOT NULL,
  full_name varchar(45),
  sort int NOT NULL DEFAULT 0,
  remark varchar(255),
  ${audit}
);
CREATE INDEX blade_dept_tenant_parent ON blade_dept (tenant_id, parent_id);

CREATE TABLE blade_post (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  category int NOT NULL DEFAULT 1,
  post_code varchar(12) NOT NULL,
  post_name varchar(64) NOT NULL,
  sort int NOT NULL DEFAULT 0,
  remark varchar(255),
  ${audit}
);
CREATE INDEX blade_post_tenant ON blade_post (tenant_id);

CREATE TABLE blade_role (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  parent_id bigint NOT NULL DEFAULT 0,
  role_name varchar(255) NOT NULL,
  role_alias varchar(255) NOT NULL,
  sort int NOT NULL DEFAULT 0,
  ${audit}
);
CREATE UNIQUE INDEX blade_role_tenant_alias ON blade_role (tenant_id, role_alias) WHERE is_deleted = 0;

CREATE TABLE blade_user (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  code varchar(12),
  user_type int NOT NULL DEFAULT 1,
  account varchar(45) NOT NULL,
  password varchar(255) NOT NULL,
  name varchar(20),
  real_name varchar(20),
  avatar varchar(500),
  email varchar(45),
  phone varchar(45),
  birthday date,
  sex int,
  dept_id bigint,
  post_id bigint,
  idcard varchar(18),
  zc_level varchar(20),
  zc varchar(50),
  zw varchar(50),
  education varchar(20),
  job varchar(30),
  school varchar(50),
  graduation_date date,
  address varchar(50),
  postal_code varchar(50),
  remark varchar(500),
  research_project varchar(300),
  awards varchar(300),
  thesis varchar(300),
  is_perfect boolean NOT NULL DEFAULT false,
  is_expert boolean NOT NULL DEFAULT false,
  sign_template varchar(500),
  fail_count int NOT NULL DEFAULT 0,
  lock_until timestamptz,
  password_time timestamptz NOT NULL DEFAULT now(),
  ${audit}
);
CREATE UNIQUE INDEX blade_user_tenant_account ON blade_user (tenant_id, account) WHERE is_deleted = 0;

CREATE TABLE blade_user_role (
  id bigint PRIMARY KEY,
  user_id bigint NOT NULL REFERENCES blade_user(id),
  role_id bigint NOT NULL REFERENCES blade_role(id),
  UNIQUE (user_id, role_id)
);

CREATE TABLE blade_menu (
  id bigint PRIMARY KEY,
  parent_id bigint NOT NULL DEFAULT 0,
  code varchar(255) NOT NULL,
  name varchar(255) NOT NULL,
  name_en varchar(255),
  alias varchar(255),
  path varchar(255),
  source varchar(255),
  sort int NOT NULL DEFAULT 0,
  category int NOT NULL DEFAULT 1,
  action int NOT NULL DEFAULT 0,
  is_open int NOT NULL DEFAULT 1,
  is_enabled boolean NOT NULL DEFAULT true,
  roles jsonb NOT NULL DEFAULT '[]',
  resource varchar(100),
  remark varchar(255),
  ${audit}
);
CREATE INDEX blade_menu_parent ON blade_menu (parent_id);
CREATE UNIQUE INDEX blade_menu_code ON blade_menu (code) WHERE is_deleted = 0;

CREATE TABLE blade_role_menu (
  id bigint PRIMARY KEY,
  menu_id bigint NOT NULL REFERENCES blade_menu(id),
  role_id bigint NOT NULL REFERENCES blade_role(id),
  UNIQUE (role_id, menu_id)
);

CREATE TABLE blade_top_menu (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  code varchar(255) NOT NULL,
  name varchar(255) NOT NULL,
  name_en varchar(255),
  source varchar(255),
  path varchar(255),
  sort int NOT NULL DEFAULT 0,
  ${audit}
);
CREATE INDEX blade_top_menu_tenant ON blade_top_menu (tenant_id);

CREATE TABLE blade_top_menu_setting (
  id bigint PRIMARY KEY,
  top_menu_id bigint NOT NULL REFERENCES blade_top_menu(id),
  menu_id bigint NOT NULL REFERENCES blade_menu(id),
  UNIQUE (top_menu_id, menu_id)
);

CREATE TABLE blade_dict (
  id bigint PRIMARY KEY,
  parent_id bigint NOT NULL DEFAULT 0,
  code varchar(255) NOT NULL,
  dict_key varchar(255),
  dict_value varchar(255) NOT NULL,
  dict_value_en varchar(255),
  sort int NOT NULL DEFAULT 0,
  remark varchar(255),
  is_sealed int NOT NULL DEFAULT 0,
  ${audit}
);
CREATE INDEX blade_dict_code ON blade_dict (code, parent_id) WHERE is_deleted = 0;

CREATE TABLE blade_dict_biz (
  id bigint PRIMARY KEY,
  tenant_id varchar(12) NOT NULL,
  parent_id bigint NOT NULL DEFAULT 0,
  code varchar(255) NOT NULL,
  dict_key varchar(255),
  dict_value varchar(255) NOT NULL,
  dict_value_en varchar(255),
  sort int NOT NULL DEFAULT 0,
  remark varchar(255),
  is_sealed int NOT NULL DEFAULT 0,
  ${audit}
);
CREATE INDEX blade_dict_biz_code ON blade_dict_biz (tenant_id, code, parent_id) WHERE is_deleted = 0;

CREATE TABLE blade_param (
  id bigint PRIMARY KEY,
  param_name varchar(255) NOT NULL,
  param_key varchar(255) NOT NULL,
  param_value varchar(1000) NOT NULL,
  remark varchar(255),
  ${audit}
);
CREATE UNIQUE INDEX blade_param_key ON blade_param (param_key) WHERE is_deleted = 0;

-- data scopes (scope_type 1 all, 2 own, 3 own dept, 4 own dept and children, 5 custom depts) and API scopes,
-- each bound to a resource (schema name) and granted to roles through blade_role_scope
CREATE TABLE blade_scope_data (
  id bigint PRIMARY KEY,
  menu_id bigint REFERENCES blade_menu(id),
  resource_code varchar(100) NOT NULL,
  scope_name varchar(255) NOT NULL,
  scope_column varchar(100) NOT NULL DEFAULT 'create_dept',
  scope_type int NOT NULL,
  scope_value varchar(2000),
  remark varchar(255),
  ${audit}
);
CREATE TABLE blade_scope_api (
  id bigint PRIMARY KEY,
  menu_id bigint REFERENCES blade_menu(id),
  resource_code varchar(100) NOT NULL,
  scope_name varchar(255) NOT NULL,
  scope_path varchar(255) NOT NULL,
  scope_type int NOT NULL DEFAULT 1,
  remark varchar(255),
  ${audit}
);
CREATE TABLE blade_role_scope (
  id bigint PRIMARY KEY,
  scope_category int NOT NULL,
  scope_id bigint NOT NULL,
  role_id bigint NOT NULL REFERENCES blade_role(id),
  UNIQUE (role_id, scope_category, scope_id)
);

CREATE TABLE blade_log_api (
  id bigint PRIMARY KEY,
  tenant_id varchar(12),
  type varchar(2) NOT NULL DEFAULT '1',
  title varchar(255),
  method varchar(10) NOT NULL,
  request_uri varchar(2000) NOT NULL,
  params text,
  status_code int NOT NULL,
  remote_ip varchar(255),
  user_agent varchar(1000),
  time int NOT NULL,
  user_id bigint,
  create_by varchar(64),
  create_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blade_log_api_time ON blade_log_api (tenant_id, create_time DESC);

CREATE TABLE blade_log_error (
  id bigint PRIMARY KEY,
  tenant_id varchar(12),
  method varchar(10),
  request_uri varchar(2000),
  params text,
  remote_ip varchar(255),
  user_agent varchar(1000),
  exception_name varchar(255),
  message text,
  stack_trace text,
  user_id bigint,
  create_by varchar(64),
  create_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX blade_log_error_time ON blade_log_error (tenant_id, create_time DESC);

CREATE TABLE blade_log_usual (
  id bigint PRIMARY KEY,
  tenant_id varchar(12),
  log_level varchar(10) NOT NULL,
  log_id varchar(100),
  log_data text,
  method varchar(10),
  request_uri varchar(2000),
  remote_ip varchar(255),
  user_agent varchar(1000),
  user_id bigint,
  create_by varchar(64),
  create_time timestamptz NOT NULL DEFAULT now()
);

-- captchas: single use (deleted when checked), 30 minutes (kept in the database so any node can check them)
CREATE TABLE kc_captcha (
  captcha_key uuid PRIMARY KEY,
  code varchar(10) NOT NULL,
  expires_at timestamptz NOT NULL
);

-- refresh tokens: only a SHA-256 of the token is stored; a token is used once (rotation); reusing a used one
-- revokes its whole family (every token issued from the same login)
CREATE TABLE kc_refresh_token (
  token_hash char(64) PRIMARY KEY,
  family uuid NOT NULL,
  tenant_id varchar(12) NOT NULL,
  user_id bigint NOT NULL,
  client_id varchar(48) NOT NULL,
  access_jti uuid,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  revoked boolean NOT NULL DEFAULT false,
  create_time timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX kc_refresh_token_family ON kc_refresh_token (family);

-- access tokens revoked before their expiry (logout); every node keeps them in memory (LISTEN kc_revoked)
CREATE TABLE kc_revoked_jti (
  jti uuid PRIMARY KEY,
  expires_at timestamptz NOT NULL
);
`).execute(db);
}
