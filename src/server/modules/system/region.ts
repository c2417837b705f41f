/**
 * Region rules the schema cannot state (spec 002 §3 Region; GB/T 2260 codes in the BladeX layout): a region's
 * parent must exist (the root is '00'), and the derived columns are filled from the parent so a region added
 * by hand looks like a seeded one — `ancestors` ('00,11,1101'), the province / city / district code and name
 * of its chain, and its level (parent's level + 1).
 */
import { sql } from '../../core/db/index.js';
import { ValidationError } from '../../core/envelope.js';
import type { ResourceEngine } from '../../resources/engine.js';
import { t } from '../../../shared/i18n/messages.js';

interface RegionRow {
  code: string;
  name: string;
  ancestors: string;
  region_level: string | number;
  province_code: string | null;
  province_name: string | null;
  city_code: string | null;
  city_name: string | null;
}

export const ROOT_REGION = '00';

export function registerRegionHooks(engine: ResourceEngine): void {
  engine.hooks('system/region', {
    async beforeSubmit({ record, trx }) {
      const parentCode = String(record.parentCode);
      const code = String(record.code);
      let level = 1;
      let parent: RegionRow | undefined;
      if (parentCode !== ROOT_REGION) {
        const r = await sql<RegionRow>`SELECT code, name, ancestors, region_level, province_code, province_name, city_code, city_name
                                         FROM blade_region WHERE code = ${parentCode} AND is_deleted = 0`.execute(trx);
        parent = r.rows[0];
        if (!parent || parentCode === code) {
          throw new ValidationError([{ field: 'parentCode', message: t('regionParentMissing', 'zh'), messageEn: t('regionParentMissing', 'en') }]);
        }
        level = Number(parent.region_level) + 1;
      }
      record.ancestors = parent ? `${parent.ancestors},${parent.code}` : ROOT_REGION;
      record.regionLevel = level;
      const name = String(record.name);
      if (level === 1) Object.assign(record, { provinceCode: code, provinceName: name, cityCode: null, cityName: null, districtCode: null, districtName: null });
      else if (level === 2) Object.assign(record, { provinceCode: parent!.province_code, provinceName: parent!.province_name, cityCode: code, cityName: name, districtCode: null, districtName: null });
      else Object.assign(record, { provinceCode: parent!.province_code, provinceName: parent!.province_name, cityCode: parent!.city_code, cityName: parent!.city_name, districtCode: level === 3 ? code : null, districtName: level === 3 ? name : null });
    },
  });
}
