/**
 * Password hashing with argon2id (DESIGN §2 auth, §11), through @node-rs/argon2 with its default cost
 * (m = 19 MiB, t = 2, p = 1: the OWASP minimum for argon2id). Hashes are PHC strings (`$argon2id$v=19$...`).
 *
 * Equal work for unknown and known accounts (DESIGN §11): a login for an account that does not exist verifies
 * the password against `dummyHash()` — the hash of a random secret, computed once per process with the same
 * parameters as every stored hash — so both answers cost one argon2id verify and their timing does not tell
 * whether the account exists.
 */
import crypto from 'node:crypto';
import { hash, verify } from '@node-rs/argon2';

// Algorithm.Argon2id of @node-rs/argon2 (a const enum, which isolatedModules cannot import)
const ARGON2ID = 2;

/** The argon2id PHC hash of `plain`. */
export function hashPassword(plain: string): Promise<string> {
  return hash(plain, { algorithm: ARGON2ID });
}

/** True when `plain` matches the PHC hash `stored`; false (never throws) for a malformed hash. */
export async function verifyPassword(stored: string, plain: string): Promise<boolean> {
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
}

let dummy: Promise<string> | undefined;

/**
 * The fixed dummy hash (argon2id of 32 random bytes, computed on the first call and reused for the life of the
 * process). Call it once at start so the first unknown-account login does not pay for the hashing.
 */
export function dummyHash(): Promise<string> {
  dummy ??= hashPassword(crypto.randomBytes(32).toString('base64url'));
  return dummy;
}

/**
 * Verifies `plain` against the dummy hash and answers false: the same work as `verifyPassword` on a stored
 * hash, for a login whose account does not exist (DESIGN §11).
 */
export async function verifyDummy(plain: string): Promise<false> {
  await verifyPassword(await dummyHash(), plain);
  return false;
}

/**
 * A random password of `length` (default 16) that meets the strictest rule of spec 000 §5: 8–16 characters
 * with upper and lower case letters, digits and symbols. Used for the generated initial password.
 */
export function generatePassword(length = 16): string {
  const sets = ['ABCDEFGHJKLMNPQRSTUVWXYZ', 'abcdefghijkmnopqrstuvwxyz', '23456789', '!@#%^*_-+='];
  const all = sets.join('');
  const pick = (s: string) => s[crypto.randomInt(s.length)];
  const chars = sets.map(pick);
  while (chars.length < length) chars.push(pick(all));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = crypto.randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j], chars[i]];
  }
  return chars.join('');
}
