/**
 * Process definitions (DESIGN §8; spec 001 §7 '/blade-flow'): deploying BPMN 2.0 files and finding the version
 * an instance starts on.
 *
 * - `deployXml`: checks the file (bpmn.ts `parseBpmn`: nothing is stored when it is refused) and stores one
 *   `flow_definition` row per executable process, version = the tenant's last version of that key + 1, and
 *   the process's `flow_model` row (its source; created or updated). Running instances keep their version.
 * - `deployShipped`: the files of `schemas/flows/*.bpmn`, deployed at start for the platform (tenant 000000,
 *   every tenant may start them) when their text changed since the last shipped version (sha-256), under an
 *   advisory lock so that nodes starting together deploy once.
 * - `latestDefinition(db, tenantId, key)`: the version a new instance starts on — the tenant's own newest
 *   deployment of the key, else the newest one deployed for it (tenant_ids) or for every tenant (the platform's).
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { sql, type Db } from '../../core/db/index.js';
import { ApiError } from '../../core/envelope.js';
import { nextId } from '../../core/ids.js';
import { repoRoot } from '../../core/config.js';
import { BpmnError, parseBpmn } from './bpmn.js';
import type { DefinitionRow } from './runtime.js';

export const PLATFORM = '000000';
const DEPLOY_LOCK = 7172011;

export interface DeployInput {
  xml: string;
  tenantId: string;
  tenantIds?: string[];
  category?: string | null;
  source: 'shipped' | 'upload' | 'model';
  resourceName?: string | null;
  userId?: string | null;
  deploymentId?: string;
}

export interface Deployed {
  id: string;
  deploymentId: string;
  processKey: string;
  name: string;
  version: number;
}

/** Deploys the processes of one file (see the module comment); BpmnError → 400 with its message. */
export async function deployXml(trx: Db, input: DeployInput): Promise<Deployed[]> {
  let infos;
  try {
    infos = await parseBpmn(input.xml);
  } catch (e) {
    if (e instanceof BpmnError) throw new ApiError(400, { zh: `${input.resourceName ? input.resourceName + '：' : ''}${e.zh}`, en: `${input.resourceName ? input.resourceName + ': ' : ''}${e.en}` });
    throw e;
  }
  const hash = createHash('sha256').update(input.xml).digest('hex');
  const deploymentId = input.deploymentId ?? nextId();
  const out: Deployed[] = [];
  for (const p of infos) {
    const last = (await sql<{ version: number; hash: string }>`
      SELECT version, hash FROM flow_definition WHERE tenant_id = ${input.tenantId} AND process_key = ${p.key} ORDER BY version DESC LIMIT 1`.execute(trx)).rows[0];
    if (input.source === 'shipped' && last?.hash === hash) continue;
    const version = (last?.version ?? 0) + 1;
    const model = (await sql<{ id: string }>`SELECT id::text AS id FROM flow_model WHERE tenant_id = ${input.tenantId} AND model_key = ${p.key} AND is_deleted = 0`.execute(trx)).rows[0];
    const modelId = model?.id ?? nextId();
    if (model) {
      await sql`UPDATE flow_model SET name = ${p.name}, xml = ${input.xml}, version = ${version}, category = COALESCE(${input.category ?? null}, category), update_time = now() WHERE id = ${modelId}::bigint`.execute(trx);
    } else {
      await sql`INSERT INTO flow_model (id, tenant_id, model_key, name, category, xml, version, create_user)
                VALUES (${modelId}::bigint, ${input.tenantId}, ${p.key}, ${p.name}, ${input.category ?? null}, ${input.xml}, ${version}, ${input.userId ?? null}::bigint)`.execute(trx);
    }
    const id = nextId();
    await sql`INSERT INTO flow_definition (id, tenant_id, tenant_ids, deployment_id, model_id, process_key, name, category, version, resource_name, xml, config, hash, source, deploy_user)
              VALUES (${id}::bigint, ${input.tenantId}, ${input.tenantIds ?? []}::text[], ${deploymentId}::bigint, ${modelId}::bigint, ${p.key}, ${p.name}, ${input.category ?? null},
                      ${version}, ${input.resourceName ?? null}, ${input.xml}, ${JSON.stringify(p)}::jsonb, ${hash}, ${input.source}, ${input.userId ?? null}::bigint)`.execute(trx);
    out.push({ id, deploymentId, processKey: p.key, name: p.name, version });
  }
  return out;
}

/** The folder of the shipped process files. */
export const FLOWS_DIR = path.join(repoRoot, 'schemas/flows');

/** Deploys the shipped files that changed (see the module comment); answers what was deployed. */
export async function deployShipped(db: Db, dir = FLOWS_DIR): Promise<Deployed[]> {
  if (!fs.existsSync(dir)) return [];
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.bpmn')).sort();
  return db.transaction().execute(async (trx) => {
    await sql`SELECT pg_advisory_xact_lock(${DEPLOY_LOCK})`.execute(trx);
    const out: Deployed[] = [];
    for (const f of files) {
      const xml = fs.readFileSync(path.join(dir, f), 'utf8');
      out.push(...(await deployXml(trx, { xml, tenantId: PLATFORM, source: 'shipped', resourceName: f, category: 'shipped' })));
    }
    return out;
  });
}

/** The definitions `tenantId` may use: its own, those deployed for it, and the platform's for everyone. */
export const visibleTo = (tenantId: string) =>
  sql`(d.tenant_id = ${tenantId} OR ${tenantId} = ANY(d.tenant_ids) OR (d.tenant_id = ${PLATFORM} AND cardinality(d.tenant_ids) = 0))`;

/** The definition a new instance of `key` starts on in `tenantId` (see the module comment), or null. */
export async function latestDefinition(db: Db, tenantId: string, key: string): Promise<DefinitionRow | null> {
  const row = (await sql<DefinitionRow>`
    SELECT d.id::text AS id, d.tenant_id, d.process_key, d.name, d.version, d.xml, d.config, d.suspension_state FROM flow_definition d
     WHERE d.process_key = ${key} AND d.is_deleted = 0 AND ${visibleTo(tenantId)}
     ORDER BY (d.tenant_id = ${tenantId}) DESC, d.version DESC, d.deploy_time DESC LIMIT 1`.execute(db)).rows[0];
  return row ?? null;
}
