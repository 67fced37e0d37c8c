import { describe, expect, it } from 'vitest';
import { OCTET_STREAM, sniffContent, TextCheck } from './file-content.ts';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

/** A ZIP local file header whose first entry is `name`. */
function zipWithFirstEntry(name: string) {
  const header = Buffer.alloc(30);
  header.write('PK\u0003\u0004', 0, 'latin1');
  header.writeUInt16LE(name.length, 26);
  return Buffer.concat([header, Buffer.from(name, 'latin1')]);
}

const typeOf = (head: Uint8Array, name = '') => {
  const sniffed = sniffContent(head, name);
  return sniffed.kind === 'type' ? sniffed.contentType : sniffed.kind;
};

describe('attachment content sniffing', () => {
  it.each([
    ['pdf', bytes('%PDF-1.7\n'), 'application/pdf'],
    ['png', bytes([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0]), 'image/png'],
    ['jpeg', bytes([0xff, 0xd8, 0xff, 0xe0]), 'image/jpeg'],
    ['gif', bytes('GIF89a..'), 'image/gif'],
    ['webp', bytes('RIFF', [1, 2, 3, 4], 'WEBPVP8 '), 'image/webp'],
    ['wav', bytes('RIFF', [1, 2, 3, 4], 'WAVEfmt '), 'audio/wav'],
    ['heic', bytes([0, 0, 0, 0x18], 'ftypheic', [0, 0, 0, 0]), 'image/heic'],
    ['mp4', bytes([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0]), 'video/mp4'],
    ['mov', bytes([0, 0, 0, 0x14], 'ftypqt  ', [0, 0, 0, 0]), 'video/quicktime'],
    ['webm', bytes([0x1a, 0x45, 0xdf, 0xa3, 1]), 'video/webm'],
    ['mp3', bytes('ID3', [4, 0]), 'audio/mpeg'],
  ])('recognises %s by its signature', (_name, head, expected) => {
    expect(typeOf(head)).toBe(expected);
  });

  it('tells Office documents from other ZIPs by their first entry, using the name only to pick among them', () => {
    expect(typeOf(zipWithFirstEntry('word/document.xml'))).toBe(
      'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    );
    expect(typeOf(zipWithFirstEntry('xl/workbook.xml'))).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(typeOf(zipWithFirstEntry('[Content_Types].xml'), 'report.XLSX')).toBe(
      'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    );
    expect(typeOf(zipWithFirstEntry('[Content_Types].xml'), 'report.exe')).toBe('application/zip');
    expect(typeOf(zipWithFirstEntry('photos/cat.jpg'), 'lab.docx')).toBe('application/zip');
  });

  it.each([
    ['a Windows program', bytes('MZ', [0x90, 0, 3, 0])],
    ['an ELF program', bytes([0x7f, 0x45, 0x4c, 0x46, 2, 1])],
    ['a Mach-O program', bytes([0xcf, 0xfa, 0xed, 0xfe, 7, 0])],
    ['a shell script', bytes('#!/bin/sh\nrm -rf /\n')],
  ])('refuses %s', (_name, head) => {
    expect(sniffContent(head, 'harmless.pdf')).toEqual({ kind: 'executable' });
  });

  it('leaves anything else to the text check: UTF-8 without NUL is text, csv by name, the rest octet-stream', () => {
    expect(sniffContent(bytes('weight,date\n12.5,2026-01-01\n'))).toEqual({ kind: 'text' });
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
