/**
 * Image captchas (spec 000 §6 login with captcha; DESIGN §6): `{ key, image }`, `image` a data URI of an SVG
 * made by svg-captcha. The text has 5 characters without look-alikes (0/o/O, 1/l/I), is checked
 * case-insensitively, works once (a checked captcha is deleted, right or wrong) and expires after 30 minutes.
 * Captchas live in `kc_captcha`, so any API node can check one another node issued.
 */
import crypto from 'node:crypto';
import svgCaptcha from 'svg-captcha';
import type { Db } from '../db/index.js';
import { sql } from '../db/index.js';

export const CAPTCHA_LENGTH = 5;
export const CAPTCHA_TTL_MINUTES = 30;

/** Creates a captcha; answers its key, image and text (the text goes to the client only under NODE_ENV=test). */
export async function createCaptcha(db: Db): Promise<{ key: string; image: string; text: string }> {
  const c = svgCaptcha.create({ size: CAPTCHA_LENGTH, noise: 2, ignoreChars: '0oO1ilI', color: true, background: '#f4f6f5' });
  const key = crypto.randomUUID();
  await sql`INSERT INTO kc_captcha (captcha_key, code, expires_at)
            VALUES (${key}, ${c.text.toLowerCase()}, now() + make_interval(mins => ${CAPTCHA_TTL_MINUTES}))`.execute(db);
  const image = 'data:image/svg+xml;base64,' + Buffer.from(c.data).toString('base64');
  return { key, image, text: c.text };
}

/** Consumes the captcha `key` and answers whether `code` matched it (false for unknown, expired or reused). */
export async function checkCaptcha(db: Db, key: string | undefined, code: string | undefined): Promise<boolean> {
  if (!key || !code || !/^[0-9a-f-]{36}$/i.test(key)) return false;
  const r = await sql<{ code: string }>`DELETE FROM kc_captcha WHERE captcha_key = ${key} AND expires_at > now() RETURNING code`.execute(db);
  return r.rows.length === 1 && r.rows[0].code === code.trim().toLowerCase();
}
