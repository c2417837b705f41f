/**
 * Text of a checked document (DESIGN §8 Duplicate checking): normalisation of what extraction gave, and the
 * comparison form ("core") the fingerprints and passages are computed on.
 *
 * - `normaliseText(raw)`: the stored text, the one the result screen shows and every offset refers to:
 *   Unicode NFKC (full-width letters, digits and ASCII punctuation → half-width: ＡＢＣ１２３ → ABC123,
 *   ideographic space → space), line breaks unified to \n, runs of blanks inside a line → one space, blank
 *   lines dropped, lines trimmed; control characters removed.
 * - `coreOf(text)`: the characters compared, with the offset of each in `text`: letters and digits of every
 *   script (CJK ideographs included), lower-cased; punctuation, symbols and whitespace are skipped, so
 *   "粮食，储藏" and "粮食储藏" or "Grain Storage" and "grain-storage" compare equal. Offsets are UTF-16
 *   code-unit indexes (JavaScript string indexes) into `text`; a passage's `[start, end)` in `text` is
 *   `[map[a], map[b - 1] + 1)` for core positions `[a, b)`.
 */

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\u200b-\u200d\ufeff]/g;

/** The stored form of extracted text (see the module comment). */
export function normaliseText(raw: string): string {
  const s = raw.normalize('NFKC').replace(/\r\n?/g, '\n').replace(CONTROL, '');
  return s
    .split('\n')
    .map((line) => line.replace(/[\t \u00a0\u3000]+/g, ' ').trim())
    .filter((line) => line.length > 0)
    .join('\n');
}

/** Letters and digits of any script (what `coreOf` keeps). */
const KEEP = /[\p{L}\p{N}]/u;

export interface Core {
  /** The compared characters (lower-case letters and digits, one UTF-16 unit each for BMP characters). */
  core: string;
  /** map[i] = the index in the text of core character i. */
  map: Int32Array;
}

/** The comparison form of a stored text and its offset map (see the module comment). */
export function coreOf(text: string): Core {
  const map = new Int32Array(text.length);
  const units = new Uint16Array(text.length);
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    let keep = -1;
    // fast paths: CJK unified ideographs, ASCII letters and digits, CJK punctuation and ASCII symbols (skipped)
    if (code >= 0x4e00 && code <= 0x9fff) keep = code;
    else if ((code >= 0x30 && code <= 0x39) || (code >= 0x61 && code <= 0x7a)) keep = code;
    else if (code >= 0x41 && code <= 0x5a) keep = code + 32;
    else if (code < 0x80 || (code >= 0x3000 && code <= 0x303f) || (code >= 0xff00 && code <= 0xff0f)) keep = -1;
    else if (code < 0xd800 || code > 0xdfff) {
      const ch = text[i];
      if (KEEP.test(ch)) {
        const lower = ch.toLowerCase();
        keep = lower.length === 1 ? lower.charCodeAt(0) : code;
      }
    }
    if (keep >= 0) {
      units[n] = keep;
      map[n++] = i;
    }
  }
  let core = '';
  for (let i = 0; i < n; i += 8192) core += String.fromCharCode(...units.subarray(i, Math.min(n, i + 8192)));
  return { core, map: map.slice(0, n) };
}
