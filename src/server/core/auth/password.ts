/**
 * Password hashing with argon2id (DESIGN §2 auth, §11), through @node-rs/argon2 with its default cost
 * (m = 19 MiB, t = 2, p = 1: the OWASP minimum for argon2id). Hashes are PHC strings (`$argon2id$v=19$...`).
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
