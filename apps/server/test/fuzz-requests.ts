import fc from 'fast-check';
import {
  Entries,
  type Fuzz,
  fuzzValue,
  garbage,
  garbageString,
  type Schema,
  toJson,
  toText,
  type WorldValues,
} from './fuzz-values.ts';

/**
 * Requests of the route fuzz test (src/fuzz/routes.fuzz.test.ts): path parameters, query strings and bodies
 * (JSON, forms, multipart, broken ones) of values from fuzz-values.ts, sent with a role's session or none.
 */

/** A route as the fuzz test sends to it: its parameters' and body's JSON Schemas where the route has them. */
export interface FuzzRoute {
  method: string;
  url: string;
  params: Record<string, Schema>;
  query: Schema | undefined;
  body: Schema | undefined;
  /** The schema of an application/x-www-form-urlencoded body (a form the browser posts itself). */
  form: Schema | undefined;
  /** What a multipart/form-data route takes. */
  multipart: MultipartSpec | undefined;
}

/** The parts of a multipart body: JSON fields (schemas by name) and the names of file parts. */
export interface MultipartSpec {
  fields: Record<string, Schema>;
  files: [string, ...string[]];
}

interface MultipartPart {
  name: string;
  filename: string | undefined;
  contentType: string | undefined;
  data: Fuzz | Uint8Array;
}

type BodyPlan =
  | { kind: 'none' }
  | { kind: 'json'; contentType: string; value: Fuzz }
  | { kind: 'form'; value: Fuzz }
  | { kind: 'text'; contentType: string; text: string }
  | { kind: 'multipart'; boundary: string; parts: MultipartPart[]; closed: boolean };

export const ROLES = ['anonymous', 'customer', 'vet', 'manager'] as const;
export type Role = (typeof ROLES)[number];

export interface RequestPlan {
  /** Who sends it: a role of the world, or an Authorization header of no session at all. */
  auth: Role | { header: string };
  params: Record<string, { value: Fuzz; raw: boolean }>;
  query: { value: Fuzz; raw: boolean } | undefined;
  body: BodyPlan;
  /** Body fields named like a path parameter take its value (confirm/:hash wants the same hash twice). */
  align: boolean;
  /** A random client address each time: per-IP rate limits would otherwise answer most of a route's requests. */
  ip: string;
}

const JSON_TYPES = ['application/json', 'application/json; charset=utf-8', 'APPLICATION/JSON', 'application/json; x=y'];
const ODD_JSON_TYPES = ['application/json; charset=utf-16le', 'application/json;charset=latin1', 'application/x+json'];
const OTHER_TYPES = ['text/plain', 'application/x-www-form-urlencoded', 'application/octet-stream', 'text/html'];
const BROKEN_TYPES = ['multipart/form-data', 'multipart/form-data; boundary=', 'x/y; z', '*/*', ';', ''];
const BROKEN_JSON = ['{', '{"a":', '[1,]', '\ufeff{}', 'null', '"text"', '1', '', ' ', '{"a":1}{"b":2}', "{'a':1}"];
const OVERSIZED = `"${'x'.repeat(1_100_000)}"`;
const FILE_TYPES = ['image/png', 'image/jpeg', 'application/pdf', 'text/plain', 'application/x-msdownload', '', 'a/b'];
const MAGIC_BYTES = [
  [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  [0xff, 0xd8, 0xff, 0xe0],
  [0x25, 0x50, 0x44, 0x46, 0x2d],
  [0x4d, 0x5a, 0x90, 0x00],
  [0x52, 0x49, 0x46, 0x46, 0, 0, 0, 0, 0x57, 0x45, 0x42, 0x50],
];
const GARBAGE_AUTH = ['Bearer', 'Bearer ', 'Bearer x', 'Basic YTpi', 'bearer abc', 'Bearer a b', 'Token t', '%00'];

/** A whole 1×1 PNG, so an upload also gets as far as the image library. */
const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const fileBytes: fc.Arbitrary<Uint8Array> = fc.oneof(
  fc.constant(Uint8Array.from(TINY_PNG)),
  fc
    .tuple(fc.constantFrom(...MAGIC_BYTES), fc.uint8Array({ maxLength: 2_000 }))
    .map(([magic, rest]) => Uint8Array.from([...magic, ...rest])),
  fc.uint8Array({ maxLength: 2_000 }),
  fc.integer({ min: 10_000, max: 100_000 }).map((size) => new Uint8Array(size)),
);

const filename = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.constantFrom('a.png', 'scan.pdf', 'photo.jpg', 'run.exe', '../../etc/passwd', 'ç 😀.txt'),
  },
  { weight: 1, arbitrary: garbageString },
);

/** The parts a route expects, in order: each of its JSON fields once, then files. */
function wellFormedParts(spec: MultipartSpec): fc.Arbitrary<MultipartPart[]> {
  const fields = Object.entries(spec.fields).map(([name, schema]) =>
    fuzzValue(schema).map((data): MultipartPart => ({ name, filename: undefined, contentType: undefined, data })),
  );
  const file = fc.record({
    name: fc.constantFrom(...spec.files),
    filename: fc.option(filename, { freq: 8, nil: undefined }),
    contentType: fc.option(fc.constantFrom(...FILE_TYPES), { freq: 8, nil: undefined }),
    data: fileBytes,
  });
  return fc.tuple(fc.tuple(...fields), fc.array(file, { maxLength: 2 })).map(([json, files]) => [...json, ...files]);
}

/** Parts of any name, kind and content, in any order. */
function anyParts(spec: MultipartSpec): fc.Arbitrary<MultipartPart[]> {
  const names = [...Object.keys(spec.fields), ...spec.files, 'files[]', 'image', 'file'];
  const part = fc.record({
    name: fc.oneof({ weight: 4, arbitrary: fc.constantFrom(...names) }, { weight: 1, arbitrary: garbageString }),
    filename: fc.option(filename, { nil: undefined }),
    contentType: fc.option(fc.constantFrom(...FILE_TYPES), { nil: undefined }),
  });
  const withData = part.chain((head) => {
    const schema = spec.fields[head.name];
    return fc.oneof(schema ? fuzzValue(schema) : garbage, fileBytes).map((data) => ({ ...head, data }));
  });
  return fc.array(withData, { maxLength: 5 });
}

function multipartBody(spec: MultipartSpec): fc.Arbitrary<BodyPlan> {
  return fc.record({
    kind: fc.constant('multipart' as const),
    boundary: fc.constantFrom('fuzzboundary', '----x', 'a'.repeat(70)),
    parts: fc.oneof({ weight: 3, arbitrary: wellFormedParts(spec) }, { weight: 1, arbitrary: anyParts(spec) }),
    // Now and then the closing boundary is missing.
    closed: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  });
}

function bodyPlan(route: FuzzRoute): fc.Arbitrary<BodyPlan> {
  const json = (value: fc.Arbitrary<Fuzz>, types: string[]) =>
    fc.record({ kind: fc.constant('json' as const), contentType: fc.constantFrom(...types), value });
  const text = (types: string[], texts: fc.Arbitrary<string>) =>
    fc.record({ kind: fc.constant('text' as const), contentType: fc.constantFrom(...types), text: texts });
  const none = fc.constant<BodyPlan>({ kind: 'none' });
  const odd = fc.oneof(
    json(garbage, JSON_TYPES),
    json(garbage, ODD_JSON_TYPES),
    text(JSON_TYPES, fc.oneof(fc.constantFrom(...BROKEN_JSON), garbageString)),
    text([...OTHER_TYPES, ...BROKEN_TYPES], garbageString),
    multipartBody({ fields: {}, files: ['file'] }),
  );
  const oversized = text(['application/json'], fc.constant(OVERSIZED));
  const form = route.form && fc.record({ kind: fc.constant('form' as const), value: fuzzValue(route.form) });
  const main = route.multipart
    ? multipartBody(route.multipart)
    : route.body
      ? json(fuzzValue(route.body), JSON_TYPES)
      : (form ?? none);
  const bodiless = route.method === 'GET' || route.method === 'HEAD';
  return fc.oneof(
    { weight: bodiless ? 50 : 600, arbitrary: main },
    { weight: bodiless ? 600 : 50, arbitrary: none },
    { weight: 80, arbitrary: odd },
    { weight: 1, arbitrary: oversized },
  );
}

const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Path and query text: usually percent-encoded; raw now and then, when that still makes a URL. */
function urlText(value: Fuzz, raw: boolean, world: WorldValues): string {
  const text = toText(value, world);
  if (raw && /^[\x21-\x7e]*$/.test(text) && !/[?#]/.test(text)) return text;
  // encodeURIComponent throws on a lone surrogate; a client can still send bytes that are not UTF-8.
  return text.split(LONE_SURROGATE).map(encodeURIComponent).join('%ED%A0%80');
}

function queryString(value: Fuzz, raw: boolean, world: WorldValues): string {
  if (!(value instanceof Entries)) return urlText(value, raw, world);
  return value.entries
    .flatMap(([key, inner]) => {
      const name = urlText(key, raw, world);
      if (Array.isArray(inner)) return inner.map((item) => `${name}=${urlText(item, raw, world)}`);
      if (inner instanceof Entries) {
        return inner.entries.map(([sub, item]) => `${name}[${urlText(sub, raw, world)}]=${urlText(item, raw, world)}`);
      }
      return [`${name}=${urlText(inner, raw, world)}`];
    })
    .join('&');
}

const rawOrEncoded = fc.oneof(
  { weight: 6, arbitrary: fc.constant(false) },
  { weight: 1, arbitrary: fc.constant(true) },
);

/** Requests to `route`, mostly with the sessions of the `admitted` roles (those the route lets in). */
export function requestPlans(route: FuzzRoute, admitted: readonly Role[]): fc.Arbitrary<RequestPlan> {
  const names = [...route.url.matchAll(/:([A-Za-z_]\w*)|\*/g)].map((match) => match[1] ?? '*');
  const param = (name: string) =>
    fc.record({
      value:
        name === '*'
          ? fc.array(garbageString, { maxLength: 4 }).map((segments) => segments.join('/'))
          : fuzzValue(route.params[name] ?? {}, name),
      raw: rawOrEncoded,
    });
  // Sessions the route lets in mostly: any other request seldom gets past the first check.
  const auth = fc.oneof(
    { weight: 8, arbitrary: fc.constantFrom(...(admitted.length > 0 ? admitted : ROLES)) },
    { weight: 2, arbitrary: fc.constantFrom(...ROLES) },
    { weight: 1, arbitrary: fc.constantFrom(...GARBAGE_AUTH).map((header) => ({ header })) },
  );
  return fc.record({
    auth,
    params: fc.record(Object.fromEntries(names.map((name) => [name, param(name)]))),
    query: fc.option(fc.record({ value: fuzzValue(route.query ?? { type: 'object' }), raw: rawOrEncoded }), {
      freq: route.query ? 10 : 2,
      nil: undefined,
    }),
    body: bodyPlan(route),
    align: fc.boolean(),
    ip: fc.ipV4(),
  });
}

function aligned(value: Fuzz, params: RequestPlan['params']): Fuzz {
  if (!(value instanceof Entries)) return value;
  return new Entries(
    value.entries.map(([key, inner]): [string, Fuzz] => {
      const param = params[key]?.value;
      if (param === undefined) return [key, inner];
      return [key, typeof param === 'string' && /^\d{1,9}$/.test(param) ? Number(param) : param];
    }),
  );
}

function multipartPayload(
  plan: Extract<BodyPlan, { kind: 'multipart' }>,
  world: WorldValues,
  align: (value: Fuzz) => Fuzz,
): Buffer {
  const chunks = plan.parts.flatMap((part) => {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.contentType === undefined ? '' : `Content-Type: ${part.contentType}\r\n`;
    const data =
      part.data instanceof Uint8Array ? Buffer.from(part.data) : Buffer.from(toJson(align(part.data), world));
    return [
      Buffer.from(`--${plan.boundary}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`),
      data,
      Buffer.from('\r\n'),
    ];
  });
  return Buffer.concat([...chunks, Buffer.from(plan.closed ? `--${plan.boundary}--\r\n` : '')]);
}

/** The app.inject() options of a plan. */
export function renderRequest(
  route: FuzzRoute,
  plan: RequestPlan,
  world: WorldValues,
  sessions: Record<Role, Record<string, string>>,
) {
  const path = route.url.replace(/:([A-Za-z_]\w*)|\*/g, (_, name: string | undefined) => {
    const param = plan.params[name ?? '*']!;
    return urlText(param.value, param.raw, world);
  });
  const query = plan.query ? queryString(plan.query.value, plan.query.raw, world) : '';
  const headers: Record<string, string> =
    typeof plan.auth === 'string' ? { ...sessions[plan.auth] } : { authorization: plan.auth.header };
  let payload: string | Buffer | undefined;
  const { body } = plan;
  const align = (value: Fuzz) => (plan.align ? aligned(value, plan.params) : value);
  if (body.kind === 'json') payload = toJson(align(body.value), world);
  if (body.kind === 'text') payload = body.text;
  if (body.kind === 'form') payload = queryString(align(body.value), false, world);
  if (body.kind === 'multipart') payload = multipartPayload(body, world, align);
  if (body.kind === 'json' || body.kind === 'text') headers['content-type'] = body.contentType;
  if (body.kind === 'form') headers['content-type'] = 'application/x-www-form-urlencoded';
  if (body.kind === 'multipart') headers['content-type'] = `multipart/form-data; boundary=${body.boundary}`;
  return {
    method: route.method as 'GET',
    url: query ? `${path}?${query}` : path,
    headers,
    payload,
    remoteAddress: plan.ip,
  };
}
