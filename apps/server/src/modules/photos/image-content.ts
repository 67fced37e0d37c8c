import { fileTypeFromBuffer } from 'file-type';

/** The image formats accepted for profile photos, told apart by their content (never by name or header). */
export type ImageFormat = 'jpeg' | 'png' | 'webp';

/** file-type's answers that are an accepted format (an animated PNG is a PNG: its first frame is kept). */
const ACCEPTED = new Map<string, ImageFormat>([
  ['image/jpeg', 'jpeg'],
  ['image/png', 'png'],
  ['image/apng', 'png'],
  ['image/webp', 'webp'],
]);

/**
 * The format file-type finds in a file's first bytes (SNIFF_LENGTH of them, or the whole file): JPEG,
 * PNG or WebP. Anything else (SVG, GIF, text, a PNG name on other content) is undefined.
 */
export async function detectImageFormat(bytes: Uint8Array): Promise<ImageFormat | undefined> {
  const detected = await fileTypeFromBuffer(bytes);
  return detected && ACCEPTED.get(detected.mime);
}
