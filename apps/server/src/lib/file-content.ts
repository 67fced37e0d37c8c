import { fileTypeFromBuffer } from 'file-type';

/**
 * What an attached file is, told by its bytes (never by its name or the client's Content-Type) with
 * file-type: the stored file_type, and executables refused. Attachments are served as downloads with `nosniff`, so a
 * wrong guess cannot run in a browser; refusing programs keeps the clinic's downloads free of them.
 */

/**
 * file-type's own sample size: some formats are only told apart this far in (an Office document by its
 * `[Content_Types].xml`, MPEG audio by a frame after its ID3 tag).
 */
export const SNIFF_LENGTH = 4100;

export const OCTET_STREAM = 'application/octet-stream';
export const PLAIN_TEXT = 'text/plain';

/** The verdict on a file's first bytes. `text` is only a candidate: the whole file must turn out UTF-8 without NULs. */
export type Sniffed = { kind: 'type'; contentType: string } | { kind: 'executable' } | { kind: 'text' };

/**
 * What file-type recognises that runs, installs or loads as a program: Windows PE/DOS, ELF, Mach-O (fat
 * ones included), Java classes and archives, WebAssembly, Android, Debian and RPM packages, browser
 * extensions, Flash, Windows shortcuts, registry files and compiled help.
 */
export const PROGRAM_EXTENSIONS: ReadonlySet<string> = new Set([
  'exe',
  'elf',
  'macho',
  'class',
  'jar',
  'wasm',
  'apk',
  'deb',
  'rpm',
  'crx',
  'xpi',
  'swf',
  'lnk',
  'reg',
  'chm',
]);

/** A script with an interpreter line (`#!`), which file-type, looking for binary formats, leaves alone. */
const isScript = (head: Uint8Array) => head[0] === 0x23 && head[1] === 0x21;

/** The verdict on the first SNIFF_LENGTH bytes (fewer when the file is shorter), by file-type. */
export async function sniffContent(head: Uint8Array): Promise<Sniffed> {
  if (isScript(head)) return { kind: 'executable' };
  const detected = await fileTypeFromBuffer(head);
  if (!detected) return { kind: 'text' };
  if (PROGRAM_EXTENSIONS.has(detected.ext)) return { kind: 'executable' };
  return { kind: 'type', contentType: detected.mime };
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
