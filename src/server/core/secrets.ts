/**
 * Secrets generated on first start into the data directory (DESIGN §11: no secrets in the repo).
 *
 * `DATA_DIR/secrets.json` (mode 600) holds `{ jwtKey: base64 (32 random bytes), pgPassword: hex }`.
 * A later start reads the same file, so tokens and the embedded database survive restarts.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export interface Secrets {
  /** HS256 signing key for access tokens, base64 of 32 random bytes. */
  jwtKey: string;
  /** Password of the embedded PostgreSQL superuser. */
  pgPassword: string;
}

/** Reads `dataDir/secrets.json`, creating it (and `dataDir`) with fresh random values when absent. */
export function loadOrCreateSecrets(dataDir: string): Secrets {
  fs.mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, 'secrets.json');
  if (fs.existsSync(file)) {
    const parsed = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<Secrets>;
    if (!parsed.jwtKey || !parsed.pgPassword) throw new Error(`${file} is incomplete: expected jwtKey and pgPassword`);
    return parsed as Secrets;
  }
  const secrets: Secrets = {
    jwtKey: crypto.randomBytes(32).toString('base64'),
    pgPassword: crypto.randomBytes(18).toString('hex'),
  };
  fs.writeFileSync(file, JSON.stringify(secrets, null, 2) + '\n', { mode: 0o600 });
  return secrets;
}
