/**
 * What an attached file is, told by its bytes (never by its name or the client's Content-Type): the
 * stored file_type, and executables refused. Attachments are served as downloads with `nosniff`, so a
 * wrong guess cannot run in a browser; refusing programs keeps the clinic's downloads free of them.
 */

/** Bytes enough to recognise every signature below (ISO-BMFF brands end at 12, a ZIP's first name soon after). */
export const SNIFF_LENGTH = 512;

export const OCTET_STREAM = 'application/octet-stream';
export const PLAIN_TEXT = 'text/plain';

/** The verdict on a file's first bytes. `text` is only a candidate: the whole file must turn out UTF-8 without NULs. */
export type Sniffed = { kind: 'type'; contentType: string } | { kind: 'executable' } | { kind: 'text' };

const ascii = (text: string) => [...text].map((char) => char.charCodeAt(0));

function startsWith(bytes: Uint8Array, signature: readonly number[], offset = 0): boolean {
  if (bytes.length < offset + signature.length) return false;
  return signature.every((byte, index) => bytes[offset + index] === byte);
}

const asciiAt = (bytes: Uint8Array, offset: number, length: number) =>
  String.fromCharCode(...bytes.subarray(offset, offset + length));

/** Windows PE/DOS, ELF, Mach-O (32/64 bit, both byte orders, fat), and scripts with an interpreter line. */
const EXECUTABLE_SIGNATURES: readonly (readonly number[])[] = [
  ascii('MZ'),
  [0x7f, 0x45, 0x4c, 0x46],
  [0xfe, 0xed, 0xfa, 0xce],
  [0xfe, 0xed, 0xfa, 0xcf],
  [0xce, 0xfa, 0xed, 0xfe],
  [0xcf, 0xfa, 0xed, 0xfe],
  [0xca, 0xfe, 0xba, 0xbe],
  ascii('#!'),
];

const SIGNATURES: readonly { signature: readonly number[]; offset?: number; contentType: string }[] = [
  { signature: ascii('%PDF-'), contentType: 'application/pdf' },
  { signature: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], contentType: 'image/png' },
  { signature: [0xff, 0xd8, 0xff], contentType: 'image/jpeg' },
  { signature: ascii('GIF87a'), contentType: 'image/gif' },
  { signature: ascii('GIF89a'), contentType: 'image/gif' },
  { signature: [0x49, 0x49, 0x2a, 0x00], contentType: 'image/tiff' },
  { signature: [0x4d, 0x4d, 0x00, 0x2a], contentType: 'image/tiff' },
  { signature: ascii('ID3'), contentType: 'audio/mpeg' },
  { signature: ascii('OggS'), contentType: 'audio/ogg' },
  { signature: [0x1a, 0x45, 0xdf, 0xa3], contentType: 'video/webm' },
  { signature: [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1], contentType: OCTET_STREAM },
];

/** ISO base media (`????ftyp<brand>`): HEIC/HEIF photos, MP4 and QuickTime videos. */
const ISO_BRANDS: Readonly<Record<string, string>> = {
  heic: 'image/heic',
  heix: 'image/heic',
  heim: 'image/heic',
  heis: 'image/heic',
  hevc: 'image/heic-sequence',
  hevx: 'image/heic-sequence',
  mif1: 'image/heif',
  msf1: 'image/heif-sequence',
  avif: 'image/avif',
  'qt  ': 'video/quicktime',
  'M4A ': 'audio/mp4',
  '3gp4': 'video/3gpp',
  '3gp5': 'video/3gpp',
};

const OOXML_BY_FOLDER: readonly [string, string][] = [
  ['word/', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'],
  ['xl/', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet'],
  ['ppt/', 'application/vnd.openxmlformats-officedocument.presentationml.presentation'],
];
const OOXML_BY_EXTENSION: Readonly<Record<string, string>> = {
  docx: OOXML_BY_FOLDER[0]![1],
  xlsx: OOXML_BY_FOLDER[1]![1],
  pptx: OOXML_BY_FOLDER[2]![1],
};

/**
 * A ZIP: an Office Open XML document when its first entry says so. Word and Excel write
 * `[Content_Types].xml` first, which does not say which one; then (and only then) the name's extension
 * picks among the three, the bytes having shown it is one of them.
 */
function zipType(head: Uint8Array, fileName: string): string {
  const nameLength = (head[26] ?? 0) | ((head[27] ?? 0) << 8);
  const firstEntry = asciiAt(head, 30, Math.min(nameLength, 64));
  const byFolder = OOXML_BY_FOLDER.find(([folder]) => firstEntry.startsWith(folder));
  if (byFolder) return byFolder[1];
  if (firstEntry === '[Content_Types].xml') {
    const extension = /\.([a-z]+)$/i.exec(fileName)?.[1]?.toLowerCase() ?? '';
    return OOXML_BY_EXTENSION[extension] ?? 'application/zip';
  }
  return 'application/zip';
}

/** The verdict on the first SNIFF_LENGTH bytes (fewer when the file is shorter). */
export function sniffContent(head: Uint8Array, fileName = ''): Sniffed {
  if (EXECUTABLE_SIGNATURES.some((signature) => startsWith(head, signature))) return { kind: 'executable' };
  const known = SIGNATURES.find(({ signature, offset }) => startsWith(head, signature, offset));
  if (known) return { kind: 'type', contentType: known.contentType };
  if (startsWith(head, ascii('RIFF'))) {
    const form = asciiAt(head, 8, 4);
    if (form === 'WEBP') return { kind: 'type', contentType: 'image/webp' };
    if (form === 'WAVE') return { kind: 'type', contentType: 'audio/wav' };
    if (form === 'AVI ') return { kind: 'type', contentType: 'video/x-msvideo' };
    return { kind: 'type', contentType: OCTET_STREAM };
  }
  if (startsWith(head, ascii('ftyp'), 4)) {
    return { kind: 'type', contentType: ISO_BRANDS[asciiAt(head, 8, 4)] ?? 'video/mp4' };
  }
  if (startsWith(head, [0x50, 0x4b, 0x03, 0x04])) return { kind: 'type', contentType: zipType(head, fileName) };
  return { kind: 'text' };
}

/**
 * Follows a text candidate chunk by chunk: it stays text while every byte so far is UTF-8 without NUL.
 * `contentType()` answers at the end: text/csv for a `.csv` name, text/plain, or octet-stream.
 */
export class TextCheck {
  private readonly decoder = new TextDecoder('utf-8', { fatal: true });
  private textual = true;

  push(chunk: Uint8Array): void {
    if (!this.textual) return;
    if (chunk.includes(0)) {
      this.textual = false;
      return;
    }
    try {
      this.decoder.decode(chunk, { stream: true });
    } catch {
      this.textual = false;
    }
  }

  contentType(fileName: string): string {
    if (this.textual) {
      try {
        this.decoder.decode();
      } catch {
        this.textual = false;
      }
    }
    if (!this.textual) return OCTET_STREAM;
    return /\.csv$/i.test(fileName) ? 'text/csv' : PLAIN_TEXT;
  }
}
