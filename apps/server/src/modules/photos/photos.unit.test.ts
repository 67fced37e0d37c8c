import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { escapeXml, hueOf, initialsOf, renderDefaultAvatar } from './default-avatar.ts';
import { detectImageFormat } from './image-content.ts';
import { canChangePhoto } from './photos.policy.ts';
import type { Actor } from '../auth/auth.service.ts';

const bytes = (...values: (number | string)[]) =>
  Buffer.concat(
    values.map((value) => (typeof value === 'string' ? Buffer.from(value, 'latin1') : Buffer.from([value]))),
  );

describe('detectImageFormat', () => {
  const image = (format: 'png' | 'jpeg' | 'webp' | 'gif') =>
    sharp({ create: { width: 4, height: 4, channels: 3, background: '#abcdef' } })
      .toFormat(format)
      .toBuffer();

  it.each(['png', 'jpeg', 'webp'] as const)('recognises %s by its content', async (format) => {
    expect(await detectImageFormat(await image(format))).toBe(format);
  });

  it.each([
    ['text', () => bytes('hello, this is text')],
    ['SVG', () => bytes('<svg xmlns="http://www.w3.org/2000/svg">')],
    ['GIF', () => image('gif')],
    ['a RIFF that is not WebP (WAV)', () => bytes('RIFF', 0x24, 0, 0, 0, 'WAVEfmt ')],
    ['a PNG signature cut short', () => bytes(0x89, 'PNG', 0x0d, 0x0a)],
    ['a PNG signature on other bytes', () => bytes(0x89, 'PNG', 0x0d, 0x0a, 0x1a, 0x0a, 'just text after it')],
    ['nothing', () => Buffer.alloc(0)],
  ])('refuses %s', async (_, content) => {
    expect(await detectImageFormat(await content())).toBeUndefined();
  });
});

describe('default avatar', () => {
  it('takes the first letters of the first and last words', () => {
    expect(initialsOf('Ana Maria Silva')).toBe('AS');
    expect(initialsOf('  rui ')).toBe('R');
    expect(initialsOf('Élodie Ørsted')).toBe('ÉØ');
    expect(initialsOf('<b>&amp;</b>')).toBe('B');
    expect(initialsOf('!!! ***')).toBe('?');
    expect(initialsOf('')).toBe('?');
  });

  it('escapes whatever text it is given', () => {
    expect(escapeXml(`<script>alert("x" & 'y')</script>`)).toBe(
      '&#60;script&#62;alert(&#34;x&#34; &#38; &#39;y&#39;)&#60;/script&#62;',
    );
    const svg = renderDefaultAvatar(7, '<script>');
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&#60;script&#62;');
  });

  it('derives a stable colour from the id', () => {
    expect(renderDefaultAvatar(5, 'AB')).toBe(renderDefaultAvatar(5, 'AB'));
    expect(new Set([1, 2, 3, 4, 5, 6, 7, 8].map(hueOf)).size).toBe(8);
    expect(hueOf(1)).toBeGreaterThanOrEqual(0);
    expect(hueOf(1_000_000)).toBeLessThan(360);
  });

  it('draws a figure instead of initials when given none', () => {
    const svg = renderDefaultAvatar(3, undefined);
    expect(svg).not.toContain('<text');
    expect(svg).toContain('<circle');
  });
});

describe('canChangePhoto', () => {
  const actor = (type: Actor['type'], userId: number): Actor => ({
    userId,
    type,
    name: 'x',
    email: 'x@clinic.test',
    locale: 'pt',
    sessionId: 1,
  });

  it.each([
    [actor('customer', 1), { userId: 1, type: 'customer' }, true],
    [actor('vet', 2), { userId: 2, type: 'vet' }, true],
    [actor('manager', 3), { userId: 3, type: 'manager' }, true],
    [actor('manager', 3), { userId: 2, type: 'vet' }, true],
    [actor('manager', 3), { userId: 4, type: 'manager' }, true],
    [actor('manager', 3), { userId: 1, type: 'customer' }, false],
    [actor('vet', 2), { userId: 5, type: 'vet' }, false],
    [actor('vet', 2), { userId: 3, type: 'manager' }, false],
    [actor('customer', 1), { userId: 2, type: 'vet' }, false],
  ] as const)('%o on %o: %s', (who, target, allowed) => {
    expect(canChangePhoto(who, target)).toBe(allowed);
  });
});

describe('initials skip titles', () => {
  it.each([
    ['Dr. João Silva', 'JS'],
    ['Dra. Ana Souza', 'AS'],
    ['Prof Maria', 'M'],
    ['Dr.', 'D'],
    ['Drummond de Andrade', 'DA'],
  ])('%s → %s', (name, initials) => {
    expect(initialsOf(name)).toBe(initials);
  });
});
