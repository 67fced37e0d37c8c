import { supportedExtensions } from 'file-type';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { OCTET_STREAM, PROGRAM_EXTENSIONS, sniffContent, TextCheck } from './file-content.ts';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

/** A ZIP whose first entry is `name`, stored uncompressed with `content`. */
function zipWithFirstEntry(name: string, content = '') {
  const data = Buffer.from(content, 'utf8');
  const header = Buffer.alloc(30);
  header.write('PK\u0003\u0004', 0, 'latin1');
  header.writeUInt16LE(20, 4);
  header.writeUInt32LE(data.length, 18);
  header.writeUInt32LE(data.length, 22);
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, Buffer.from(name, 'latin1'), data]);
}

/** An Office Open XML package's first entry, naming its main part's type as Word and Excel write it. */
const officeDocument = (mainPart: string) =>
  zipWithFirstEntry(
    '[Content_Types].xml',
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>' +
      '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
      `<Override PartName="/main.xml" ContentType="application/vnd.openxmlformats-officedocument.${mainPart}.main+xml"/>` +
      '</Types>',
  );

const image = (format: 'png' | 'jpeg' | 'gif' | 'webp' | 'tiff' | 'avif') =>
  sharp({ create: { width: 4, height: 4, channels: 3, background: '#c0ffee' } })
    .toFormat(format)
    .toBuffer();

const typeOf = async (head: Uint8Array) => {
  const sniffed = await sniffContent(head);
  return sniffed.kind === 'type' ? sniffed.contentType : sniffed.kind;
};

describe('attachment content sniffing', () => {
  it.each([
    ['pdf', () => bytes('%PDF-1.7\n'), 'application/pdf'],
    ['png', () => image('png'), 'image/png'],
    ['jpeg', () => image('jpeg'), 'image/jpeg'],
    ['gif', () => image('gif'), 'image/gif'],
    ['webp', () => image('webp'), 'image/webp'],
    ['tiff', () => image('tiff'), 'image/tiff'],
    ['avif', () => image('avif'), 'image/avif'],
    ['wav', () => bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '), 'audio/wav'],
    ['heic', () => bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0]), 'image/heic'],
    ['mp4', () => bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0]), 'video/mp4'],
    ['mov', () => bytes([0, 0, 0, 0x14], 'ftypqt  ', [0, 0, 0, 0]), 'video/quicktime'],
    [
      'webm',
      () => bytes([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 1, 0x42, 0xf7, 0x81, 1, 0x42, 0x82, 0x84], 'webm'),
      'video/webm',
    ],
    // An ID3v2 tag (empty), then an MPEG-1 Layer III frame header.
    ['mp3', () => bytes('ID3', [4, 0, 0, 0, 0, 0, 0], [0xff, 0xfb, 0x90, 0x64, 0, 0, 0, 0]), 'audio/mpeg'],
    ['ogg', () => bytes('OggS', [0, 2], Array<number>(20).fill(0), [1, 0x1e, 1], 'vorbis', [0, 0, 0, 0]), 'audio/ogg'],
  ])('recognises %s', async (_name, head, expected) => {
    expect(await typeOf(await head())).toBe(expected);
  });

  it('tells Office documents from other ZIPs by their [Content_Types].xml, never by their name', async () => {
    expect(await typeOf(officeDocument('wordprocessingml.document'))).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(await typeOf(officeDocument('spreadsheetml.sheet'))).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(await typeOf(zipWithFirstEntry('photos/cat.jpg', 'not a jpeg'))).toBe('application/zip');
  });

  it.each([
    ['a Windows program', bytes('MZ', [0x90, 0, 3, 0])],
    ['an ELF program', bytes([0x7f, 0x45, 0x4c, 0x46, 2, 1])],
    ['a Mach-O program', bytes([0xcf, 0xfa, 0xed, 0xfe, 7, 0])],
    ['a universal Mach-O program', bytes([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 2])],
    ['a Java class', bytes([0xca, 0xfe, 0xba, 0xbe, 0, 0, 0, 0x34])],
    ['a Java archive', zipWithFirstEntry('META-INF/MANIFEST.MF', 'Manifest-Version: 1.0\n')],
    ['WebAssembly', bytes([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0])],
    ['a shell script', bytes('#!/bin/sh\nrm -rf /\n')],
  ])('refuses %s', async (_name, head) => {
    expect(await sniffContent(head)).toEqual({ kind: 'executable' });
  });

  it('names programs only by extensions file-type reports', () => {
    for (const extension of PROGRAM_EXTENSIONS) expect(supportedExtensions.has(extension), extension).toBe(true);
  });

  it('leaves anything else to the text check: UTF-8 without NUL is text, csv by name, the rest octet-stream', async () => {
    expect(await sniffContent(bytes('weight,date\n12.5,2026-01-01\n'))).toEqual({ kind: 'text' });
    const check = (chunks: Uint8Array[], name: string) => {
      const text = new TextCheck();
      for (const chunk of chunks) text.push(chunk);
      return text.contentType(name);
    };
    expect(check([Buffer.from('Notas: o cão está melhor.\n')], 'notes.txt')).toBe('text/plain');
    expect(check([Buffer.from('a,b\n1,2\n')], 'weights.CSV')).toBe('text/csv');
    // A multi-byte character split across chunks is still text.
    const euro = Buffer.from('price €12', 'utf8');
    expect(check([euro.subarray(0, 7), euro.subarray(7)], 'x.txt')).toBe('text/plain');
    expect(check([Buffer.from('abc'), Buffer.from([0x61, 0x00, 0x62])], 'x.txt')).toBe(OCTET_STREAM);
    expect(check([Buffer.from([0xc3, 0x28])], 'x.txt')).toBe(OCTET_STREAM);
    // Cut in the middle of a character at the very end: not UTF-8.
    expect(check([euro.subarray(0, 7)], 'x.txt')).toBe(OCTET_STREAM);
  });
});
