/** unzipper ships no typings; the Excel import reads a zip's central directory only (xlsx-rows.ts `openBook`). */
declare module 'unzipper' {
  /** An entry of the central directory (unzipper 0.10, lib/Open/directory.js), the fields xlsx-rows.ts uses. */
  export interface UnzipperEntry {
    path: string;
    type: string;
    flags: number;
    compressionMethod: number;
    compressedSize: number;
    offsetToLocalFileHeader: number;
  }
  const unzipper: { Open: { file(file: string): Promise<{ files: UnzipperEntry[] }> } };
  export default unzipper;
}
