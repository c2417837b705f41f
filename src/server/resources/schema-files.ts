/**
 * The resource schema files under a schemas folder (DESIGN §4), for Node code only: the server's registry, the
 * type generator and the Storybook generator. Folders starting with `_` (the meta-schema, page schemas),
 * `locales` and `flows` hold no resources and are skipped. Answers absolute paths, sorted.
 */
import fs from 'node:fs';
import path from 'node:path';

export function resourceSchemaFiles(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name.startsWith('_') || e.name === 'locales' || e.name === 'flows') continue;
      out.push(...resourceSchemaFiles(p));
    } else if (e.name.endsWith('.json')) out.push(p);
  }
  return out.sort();
}
