/**
 * Small display helpers of the components: file sizes in 1024 steps (spec 000 §9), extension and accept
 * checks of uploads.
 */

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB'];

/** `52428800` → `50MB`; 1024 steps, at most one decimal. */
export function formatSize(bytes: number): string {
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < UNITS.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Math.round(v * 10) / 10}${UNITS[i]}`;
}

/**
 * True when a file of `name` and MIME `type` matches an `accept` list (`.pdf,.docx,image/*`): extensions
 * compare case-insensitively; `type/*` matches by MIME prefix. An empty accept accepts everything.
 */
export function acceptsFile(accept: string | undefined, name: string, type = ''): boolean {
  if (!accept || !accept.trim()) return true;
  const lower = name.toLowerCase();
  return accept
    .split(',')
    .map((a) => a.trim().toLowerCase())
    .filter(Boolean)
    .some((a) => (a.startsWith('.') ? lower.endsWith(a) : a.endsWith('/*') ? type.toLowerCase().startsWith(a.slice(0, -1)) : type.toLowerCase() === a));
}
