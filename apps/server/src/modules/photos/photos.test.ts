import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildCustomer, buildManager, buildVet } from '../../demo-data/factories.ts';
import { userPhotos } from '../../db/schema.ts';
import { buildTestApp, type TestApp } from '../../../test/build-test-app.ts';

const PASSWORD = 'secret-pass';

interface Part {
  name: string;
  filename?: string;
  contentType?: string;
  content: Buffer | string;
}

/** A multipart/form-data body as a browser sends it. */
function multipart(parts: Part[]) {
  const boundary = `----vetcall${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const filename = part.filename === undefined ? '' : `; filename="${part.filename}"`;
    const type = part.contentType ? `Content-Type: ${part.contentType}\r\n` : '';
    chunks.push(
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n${type}\r\n`),
    );
    chunks.push(Buffer.from(part.content));
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const imagePart = (content: Buffer | string, filename = 'photo.png', contentType = 'image/png'): Part => ({
  name: 'image',
  filename,
  contentType,
  content,
});

const solid = (width: number, height: number, background = '#3366cc') =>
  sharp({ create: { width, height, channels: 3, background } });

const png = (width = 800, height = 600) => solid(width, height).png().toBuffer();
const jpeg = (width = 800, height = 600) => solid(width, height).jpeg().toBuffer();
const webp = (width = 800, height = 600) => solid(width, height).webp().toBuffer();

let bomb: Promise<Buffer> | undefined;
/** 48 megapixels of white in a ~50 KB PNG: small on the wire, huge once decoded. */
const decompressionBomb = () =>
  (bomb ??= sharp({ create: { width: 8000, height: 6000, channels: 3, background: '#fff' } })
    .png({ palette: true, compressionLevel: 9 })
    .toBuffer());

async function buildWorld(t: TestApp) {
  const manager = await buildManager(t.db, { email: 'boss@clinic.test', password: PASSWORD, name: 'Marta Lopes' });
  const otherManager = await buildManager(t.db, { email: 'boss2@clinic.test', password: PASSWORD });
  const vet = await buildVet(t.db, { email: 'rui@clinic.test', password: PASSWORD, name: 'Rui Costa' });
  const otherVet = await buildVet(t.db, { email: 'sara@clinic.test', password: PASSWORD });
  const removedVet = await buildVet(t.db, { email: 'gone@clinic.test', password: PASSWORD, active: false });
  const customer = await buildCustomer(t.db, { email: 'ana@clinic.test', password: PASSWORD, name: 'Ana Silva' });
  const otherCustomer = await buildCustomer(t.db, { email: 'bruno@clinic.test', password: PASSWORD });
  return { manager, otherManager, vet, otherVet, removedVet, customer, otherCustomer };
}

type World = Awaited<ReturnType<typeof buildWorld>>;

describe('POST /api/users/image/{user_id}', () => {
  let t: TestApp;
  let world: World;
  const loginAs = (email: string) => t.loginAs(email, PASSWORD);

  beforeEach(async () => {
    t = await buildTestApp();
    world = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  async function upload(userId: number, parts: Part[], as: string | null = 'boss@clinic.test') {
    const body = multipart(parts);
    const auth = as ? (await loginAs(as)).headers : {};
    return t.app.inject({
      method: 'POST',
      url: `/api/users/image/${userId}`,
      payload: body.payload,
      headers: { ...body.headers, ...auth },
    });
  }

  async function storedPhoto(userId: number) {
    const [row] = await t.db.select().from(userPhotos).where(eq(userPhotos.userId, userId));
    return row;
  }

  it.each([
    ['a customer for themself', 'ana@clinic.test', 'customer', 200],
    ['a vet for themself', 'rui@clinic.test', 'vet', 200],
    ['a manager for themself', 'boss@clinic.test', 'manager', 200],
    ['a manager for a vet', 'boss@clinic.test', 'vet', 200],
    ['a manager for another manager', 'boss@clinic.test', 'otherManager', 200],
    ['a manager for a customer', 'boss@clinic.test', 'customer', 403],
    ['a vet for another vet', 'sara@clinic.test', 'vet', 403],
    ['a vet for a manager', 'rui@clinic.test', 'manager', 403],
    ['a customer for a vet', 'ana@clinic.test', 'vet', 403],
    ['a customer for another customer', 'bruno@clinic.test', 'customer', 403],
  ] as const)('%s (%s on %s) answers %i', async (_, email, targetName, status) => {
    const target = world[targetName].user;
    const response = await upload(target.id, [imagePart(await png())], email);
    expect(response.statusCode, response.body).toBe(status);
    const stored = await storedPhoto(target.id);
    if (status === 200) {
      expect(response.json()).toEqual({ user_id: target.id, etag: stored!.etag });
      expect(stored!.contentType).toBe('image/webp');
      expect(stored!.etag).toMatch(/^[\w-]{16}$/);
    } else {
      expect(response.json().error).toBe('forbidden');
      expect(stored).toBeUndefined();
    }
  });

  it('answers 401 without a token and 404 for an unknown or removed user', async () => {
    expect((await upload(world.vet.user.id, [imagePart(await png())], null)).statusCode).toBe(401);
    const unknown = await upload(999_999, [imagePart(await png())]);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().error).toBe('not_found');
    expect((await upload(world.removedVet.user.id, [imagePart(await png())])).statusCode).toBe(404);
    expect((await upload(0, [imagePart(await png())])).statusCode).toBe(400);
  });

  it.each([
    ['PNG', png, 'image/png'],
    ['JPEG', jpeg, 'image/jpeg'],
    ['WebP', webp, 'image/webp'],
  ] as const)('accepts a %s, stored as a 512 px WebP square', async (_, make, type) => {
    const response = await upload(world.vet.user.id, [
      { name: 'user_id', content: String(world.vet.user.id) },
      imagePart(await make(1200, 900), 'whatever.bin', type),
    ]);
    expect(response.statusCode, response.body).toBe(200);
    const stored = await storedPhoto(world.vet.user.id);
    const metadata = await sharp(stored!.content).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 512, height: 512 });
  });

  it('crops a small image to a square of its shorter side, never enlarging it', async () => {
    expect((await upload(world.vet.user.id, [imagePart(await png(300, 200))])).statusCode).toBe(200);
    const metadata = await sharp((await storedPhoto(world.vet.user.id))!.content).metadata();
    expect(metadata).toMatchObject({ format: 'webp', width: 200, height: 200 });
  });

  it('applies the EXIF orientation and strips every piece of metadata', async () => {
    // Left half red, right half blue, marked "rotate 90° clockwise to display" (orientation 6).
    const original = await sharp({ create: { width: 200, height: 100, channels: 3, background: '#0000ff' } })
      .composite([{ input: await solid(100, 100, '#ff0000').png().toBuffer(), left: 0, top: 0 }])
      .withMetadata({ orientation: 6, exif: { IFD0: { Copyright: 'secret', Artist: 'Ana' } } })
      .jpeg({ quality: 95 })
      .toBuffer();
    const input = await sharp(original).metadata();
    expect(input.exif).toBeDefined();
    expect(input.orientation).toBe(6);

    expect((await upload(world.vet.user.id, [imagePart(original, 'rotated.jpg', 'image/jpeg')])).statusCode).toBe(200);
    const stored = (await storedPhoto(world.vet.user.id))!.content;
    const output = await sharp(stored).metadata();
    expect(output.exif).toBeUndefined();
    expect(output.xmp).toBeUndefined();
    expect(output.iptc).toBeUndefined();
    expect(output.icc).toBeUndefined();
    expect(output.orientation).toBeUndefined();
    expect(stored.includes('secret')).toBe(false);
    expect([output.width, output.height]).toEqual([100, 100]);

    // Displayed upright, red is on top: the rotation was applied to the pixels.
    const { data, info } = await sharp(stored).raw().toBuffer({ resolveWithObject: true });
    const pixel = (x: number, y: number) => [...data.subarray((y * info.width + x) * info.channels).subarray(0, 3)];
    const [topRed, , topBlue] = pixel(50, 10);
    const [bottomRed, , bottomBlue] = pixel(50, 90);
    expect(topRed).toBeGreaterThan(200);
    expect(topBlue).toBeLessThan(60);
    expect(bottomRed).toBeLessThan(60);
    expect(bottomBlue).toBeGreaterThan(200);
  });

  it('rejects a text file named photo.png with 415, whatever its declared type', async () => {
    const response = await upload(world.vet.user.id, [imagePart('just some text, not an image at all')]);
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ error: 'unsupported_media_type', fields: { image: 'invalid_format' } });
    expect(await storedPhoto(world.vet.user.id)).toBeUndefined();
  });

  it.each([
    [
      'an SVG',
      '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script></svg>',
      'image/svg+xml',
    ],
    ['a GIF', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1'), 'image/gif'],
    ['an HTML page', '<!doctype html><html><script>alert(1)</script></html>', 'image/png'],
    ['a tiny file', Buffer.from([0xff, 0xd8]), 'image/jpeg'],
  ])('rejects %s with 415', async (_, content, type) => {
    const response = await upload(world.vet.user.id, [imagePart(content, 'photo.png', type)]);
    expect(response.statusCode).toBe(415);
    expect(response.json()).toMatchObject({ error: 'unsupported_media_type', fields: { image: 'invalid_format' } });
  });

  it('rejects a real 6 MB image with 413 and keeps the previous photo', async () => {
    expect((await upload(world.vet.user.id, [imagePart(await png(100, 100))])).statusCode).toBe(200);
    const before = await storedPhoto(world.vet.user.id);
    const noise = randomBytes(1500 * 1500 * 3);
    const big = await sharp(noise, { raw: { width: 1500, height: 1500, channels: 3 } })
      .png({ compressionLevel: 0 })
      .toBuffer();
    expect(big.length).toBeGreaterThan(6_000_000);
    const response = await upload(world.vet.user.id, [imagePart(big)]);
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ error: 'payload_too_large', fields: { image: 'too_big' } });
    expect((await storedPhoto(world.vet.user.id))!.etag).toBe(before!.etag);
  });

  it('accepts an image of exactly 5 MiB and refuses one byte more', async () => {
    const fill = async (size: number) => {
      const image = await png(64, 64);
      // Bytes after PNG's IEND chunk are ignored by decoders: a valid image of any size.
      return Buffer.concat([image, Buffer.alloc(size - image.length)]);
    };
    expect((await upload(world.vet.user.id, [imagePart(await fill(5 * 1024 * 1024))])).statusCode).toBe(200);
    expect((await upload(world.vet.user.id, [imagePart(await fill(5 * 1024 * 1024 + 1))])).statusCode).toBe(413);
  });

  it('refuses a decompression bomb without decoding it', async () => {
    const image = await decompressionBomb();
    expect(image.length).toBeLessThan(200_000);
    const response = await upload(world.vet.user.id, [imagePart(image)]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'error_changing_user_image', fields: { image: 'too_big' } });
  });

  it('answers error_changing_user_image for a damaged image behind valid headers', async () => {
    // A PNG's signature and IHDR chunk, then an IDAT chunk of noise: a PNG by its structure, not decodable.
    const idat = Buffer.alloc(8);
    idat.writeUInt32BE(2000, 0);
    idat.write('IDAT', 4, 'latin1');
    const damaged = Buffer.concat([(await png(64, 64)).subarray(0, 33), idat, randomBytes(2000 + 4)]);
    const response = await upload(world.vet.user.id, [imagePart(damaged)]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'error_changing_user_image', fields: { image: 'invalid_format' } });
  });

  it.each([
    ['no file', [{ name: 'user_id', content: '3' }]],
    ['an empty file (nothing chosen)', [imagePart(Buffer.alloc(0), '', 'application/octet-stream')]],
    ['a file under another field name', [{ ...imagePart(Buffer.alloc(0)), name: 'photo' }]],
  ])('answers 400 image required for %s', async (_, parts) => {
    const response = await upload(world.vet.user.id, parts as Part[]);
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_failed', fields: { image: 'required' } });
  });

  it('answers 415 for a body that is not multipart and 413 for a second file', async () => {
    const { headers } = await loginAs('boss@clinic.test');
    const json = await t.app.inject({
      method: 'POST',
      url: `/api/users/image/${world.vet.user.id}`,
      payload: { image: 'x' },
      headers,
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().error).toBe('unsupported_media_type');

    const raw = await t.app.inject({
      method: 'POST',
      url: `/api/users/image/${world.vet.user.id}`,
      payload: await png(),
      headers: { ...headers, 'content-type': 'image/png' },
    });
    expect(raw.statusCode).toBe(415);
  });

  it('uses the first file and ignores any further one (one file per request)', async () => {
    const first = await png(100, 100);
    const response = await upload(world.vet.user.id, [imagePart(first), imagePart(await png(300, 300))]);
    expect(response.statusCode).toBe(200);
    const metadata = await sharp((await storedPhoto(world.vet.user.id))!.content).metadata();
    expect(metadata.width).toBe(100);
  });

  it('replaces a previous photo (one row per user, a new ETag)', async () => {
    const first = await upload(world.vet.user.id, [imagePart(await png())]);
    const second = await upload(world.vet.user.id, [imagePart(await solid(600, 600, '#ffaa00').png().toBuffer())]);
    expect(first.json().etag).not.toBe(second.json().etag);
    const rows = await t.db.select().from(userPhotos).where(eq(userPhotos.userId, world.vet.user.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]!.etag).toBe(second.json().etag);
  });
});

describe('GET /api/users/image/{user_id}/', () => {
  let t: TestApp;
  let world: World;

  beforeEach(async () => {
    t = await buildTestApp();
    world = await buildWorld(t);
  });
  afterEach(async () => {
    await t.close();
  });

  async function givePhoto(userId: number) {
    const body = multipart([imagePart(await png(640, 480))]);
    const { headers } = await t.loginAs('boss@clinic.test', PASSWORD);
    const response = await t.app.inject({
      method: 'POST',
      url: `/api/users/image/${userId}`,
      payload: body.payload,
      headers: { ...body.headers, ...headers },
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ etag: string }>().etag;
  }

  it('serves the stored WebP without auth, revalidated by ETag when there is no hash', async () => {
    const etag = await givePhoto(world.vet.user.id);
    const response = await t.app.inject({ method: 'GET', url: `/api/users/image/${world.vet.user.id}/` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('image/webp');
    expect(response.headers.etag).toBe(`"${etag}"`);
    expect(response.headers['cache-control']).toBe('public, no-cache');
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['content-disposition']).toMatch(/^inline/);
    expect(await sharp(response.rawPayload).metadata()).toMatchObject({ format: 'webp', width: 480, height: 480 });

    const revalidated = await t.app.inject({
      method: 'GET',
      url: `/api/users/image/${world.vet.user.id}`,
      headers: { 'if-none-match': `"${etag}"` },
    });
    expect(revalidated.statusCode).toBe(304);
    expect(revalidated.body).toBe('');
    expect(revalidated.headers.etag).toBe(`"${etag}"`);

    const weakInList = await t.app.inject({
      method: 'GET',
      url: `/api/users/image/${world.vet.user.id}`,
      headers: { 'if-none-match': `"other", W/"${etag}"` },
    });
    expect(weakInList.statusCode).toBe(304);

    const stale = await t.app.inject({
      method: 'GET',
      url: `/api/users/image/${world.vet.user.id}`,
      headers: { 'if-none-match': '"something-else"' },
    });
    expect(stale.statusCode).toBe(200);
  });

  it('lets the browser keep the photo for a year when the URL carries a cache-busting hash', async () => {
    await givePhoto(world.manager.user.id);
    for (const hash of ['0', '42', '99999']) {
      const response = await t.app.inject({
        method: 'GET',
        url: `/api/users/image/${world.manager.user.id}/?hash=${hash}`,
      });
      expect(response.statusCode, hash).toBe(200);
      expect(response.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
  });

  it.each(['100000', '-1', 'abc', '1.5', '', '123456'])('answers 400 for hash=%s', async (hash) => {
    const response = await t.app.inject({ method: 'GET', url: `/api/users/image/${world.vet.user.id}/?hash=${hash}` });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: 'validation_failed', fields: { hash: 'invalid_format' } });
  });

  it('generates an initials avatar without a photo, under a strict CSP, always revalidated', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/users/image/${world.vet.user.id}/?hash=7` });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(response.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'");
    expect(response.headers['x-content-type-options']).toBe('nosniff');
    expect(response.headers['cache-control']).toBe('public, no-cache');
    expect(response.body).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(response.body).toContain('>RC</text>');

    const again = await t.app.inject({
      method: 'GET',
      url: `/api/users/image/${world.vet.user.id}`,
      headers: { 'if-none-match': response.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);

    // Another user: another colour.
    const other = await t.app.inject({ method: 'GET', url: `/api/users/image/${world.otherVet.user.id}` });
    expect(other.body.match(/fill="(hsl[^"]+)"/)![1]).not.toBe(response.body.match(/fill="(hsl[^"]+)"/)![1]);
  });

  it('keeps markup in a name out of the generated avatar', async () => {
    const vet = await buildVet(t.db, { name: '<script>alert("x")</script> & <img src=x onerror=alert(1)>' });
    const response = await t.app.inject({ method: 'GET', url: `/api/users/image/${vet.user.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toMatch(/<script|<img|onerror|alert\(/i);
    expect(response.body.match(/<text[^>]*>([^<]*)<\/text>/)![1]).toBe('SO');
  });

  it('shows no initials for a customer (the image is public)', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/users/image/${world.customer.user.id}` });
    expect(response.statusCode).toBe(200);
    expect(response.body).not.toContain('<text');
    expect(response.body).not.toContain('AS');
  });

  it('answers 404 for an unknown or removed user, also when a photo was stored', async () => {
    await givePhoto(world.otherVet.user.id);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/image/999999' })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/users/image/${world.removedVet.user.id}` })).statusCode,
    ).toBe(404);
    await t.db.insert(userPhotos).values({
      userId: world.removedVet.user.id,
      content: await png(10, 10),
      contentType: 'image/webp',
      etag: 'x',
    });
    expect(
      (await t.app.inject({ method: 'GET', url: `/api/users/image/${world.removedVet.user.id}` })).statusCode,
    ).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/api/users/image/abc' })).statusCode).toBe(400);
  });
});
