/**
 * Banners (spec 002 §1 'banners', §2 'banner', §7 'client and banner: list, detail, remove, submit'; issue 9):
 * the generic resource `system/banner` (schemas/system/banner.json) — title, one image, a link opened on click
 * (`http(s)://…` or a site path `/…`), sort order, enabled, remark; tenant-scoped (each tenant its own banners),
 * audited, administrators only (menu `banner`). Path: the spec lists banners with the tenant and client calls,
 * which live under `/api/blade-system`, so `/api/blade-system/banner`.
 *
 * What the schema cannot say (hook, in the submit's transaction): the image must be a file uploaded to the
 * caller's tenant (`put-file`, a live row of blade_attach with that link) and an image (png, jpg, jpeg, gif,
 * bmp, webp); otherwise 400 请上传图片 on `image` and nothing is stored.
 */
import { sql } from '../../core/db/index.js';
import { ValidationError } from '../../core/envelope.js';
import type { ResourceEngine } from '../../resources/engine.js';

export const BANNER_RESOURCE = 'system/banner';
const IMAGE_EXT = ['png', 'jpg', 'jpeg', 'gif', 'bmp', 'webp'];
const M = { image: { zh: '请上传图片', en: 'Please upload the image' } };

/** Registers the banner hook of the module comment. */
export function registerBannerHooks(engine: ResourceEngine): void {
  engine.hooks(BANNER_RESOURCE, {
    async beforeSubmit({ record, user, trx }) {
      const items = Array.isArray(record.image) ? (record.image as Array<Record<string, unknown>>) : [];
      const link = items.length === 1 ? items[0]?.link : undefined;
      const fault = () => new ValidationError([{ field: 'image', message: M.image.zh, messageEn: M.image.en }]);
      if (typeof link !== 'string') throw fault();
      // by the stored name (indexed per tenant), which ends the link: …/file/upload/{date}/{uuid}.{ext}
      const name = link.slice(link.indexOf('upload/'));
      const r = await sql<{ extension: string }>`SELECT extension FROM blade_attach
        WHERE tenant_id = ${user.tenantId} AND name = ${name} AND link = ${link} AND is_deleted = 0 LIMIT 1`.execute(trx);
      if (!r.rows[0] || !IMAGE_EXT.includes(r.rows[0].extension)) throw fault();
    },
  });
}
