import fc from 'fast-check';

/**
 * The values of the route fuzz test (src/fuzz/routes.fuzz.test.ts, requests in fuzz-requests.ts): half of them fit
 * the JSON Schema of their field, edge values and the world's ids included, so requests get past validation into
 * the services; the other half carry anything else (wrong types, huge or odd strings, deep nesting, prototype
 * keys) at any depth.
 */

/** JSON Schema as the OpenAPI document or z.toJSONSchema writes it (`nullable`; boolean or numeric exclusives). */
export interface Schema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: boolean | number;
  exclusiveMaximum?: boolean | number;
  minItems?: number;
  maxItems?: number;
  nullable?: boolean;
}

/** A value of the world, read when the request is sent: its hashes are random and new at each rebuild. */
export class WorldRef {
  constructor(readonly key: string) {}
}
/** JSON text sent as written: numbers JSON.stringify cannot write (1e999, 30 digits), nesting thousands deep. */
export class RawJson {
  constructor(readonly text: string) {}
}
/** An object as its list of entries, so `__proto__` and repeated keys reach the server as written. */
export class Entries {
  constructor(readonly entries: [string, Fuzz][]) {}
}
export type Fuzz = null | boolean | number | string | WorldRef | RawJson | Entries | Fuzz[];
export type WorldValues = Record<string, string | number>;

export function toJson(value: Fuzz, world: WorldValues): string {
  if (value instanceof WorldRef) return JSON.stringify(world[value.key] ?? value.key);
  if (value instanceof RawJson) return value.text;
  if (value instanceof Entries) {
    return `{${value.entries.map(([key, inner]) => `${JSON.stringify(key)}:${toJson(inner, world)}`).join(',')}}`;
  }
  if (Array.isArray(value)) return `[${value.map((inner) => toJson(inner, world)).join(',')}]`;
  return JSON.stringify(value);
}

/** The text of a value in a path or query string. */
export function toText(value: Fuzz, world: WorldValues): string {
  if (typeof value === 'string') return value;
  if (value instanceof WorldRef) return String(world[value.key] ?? value.key);
  if (typeof value === 'number') return String(value);
  return toJson(value, world);
}

const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'valueOf', 'hasOwnProperty'];

/** Strings that have broken parsers, number coercions, date handling and SQL before. */
const NASTY_STRINGS = [
  ...PROTOTYPE_KEYS,
  ...['', ' ', '  x  ', '0', '00', '-1', '-0', '1.5', '1e3', ' 7', '07', '0x10', '+1', '1_000', '١٢٣'],
  ...['NaN', 'Infinity', '-Infinity', '1e309', '2147483647', '2147483648', '9999999999', '9007199254740993'],
  ...['null', 'undefined', 'true', 'false', '[]', '{}', '[object Object]', '..', '../..', '../../etc/passwd'],
  ...['%00', '%', '%zz', '%2e%2e', "'", '"', "' OR '1'='1", '\\', '<script>alert(1)</script>', '${7*7}'],
  ...['Ω≈ç√', '😀', '\u202e', '\u2028', '\ufeff', '\ud800', 'İ', 'ß', 'a\u0301', '\u0000', '\u0007', '\u007f'],
  ...['2026-02-30', '2026-13-01', '0000-00-00', '9999-12-31', '2026-11-20', '20261120', '99999999', '00000000'],
  ...['2026-11-20T11:00:00Z', '2026-11-20T11:00:00+14:00', '275760-09-13T00:00:00Z', '2026-11-20 11:00'],
  ...['24:00', '25:61', 'P0D', 'P999M', '12/99', '00/00', 'en', 'pt', 'pt-BR', 'pt_br', 'PT', 'US', 'BR'],
  ...['Dog', 'Cat', 'TK_Confirmed', 'customer', 'vet', 'manager', 'a@b', 'ana@example.test', 'rui@clinic.test'],
  ...['boss@clinic.test', 'ANA@EXAMPLE.TEST', '123456', '654321', '000000', 'evt-ana-rui', 'x'.repeat(101)],
];

/** Up to ~100 kB of one character (multi-byte and NUL too); mostly the shorter ones, which cost less to send. */
const hugeString = fc
  .tuple(
    fc.oneof(
      { weight: 4, arbitrary: fc.integer({ min: 1_000, max: 10_000 }) },
      fc.integer({ min: 10_000, max: 100_000 }),
    ),
    fc.constantFrom('x', 'é', '😀', ' ', '9', '\u0000', '%'),
  )
  .map(([length, unit]) => unit.repeat(Math.ceil(length / unit.length)));

export const garbageString: fc.Arbitrary<string> = fc.oneof(
  { weight: 5, arbitrary: fc.constantFrom(...NASTY_STRINGS) },
  { weight: 3, arbitrary: fc.string({ unit: 'grapheme', maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 40 }) },
  { weight: 1, arbitrary: hugeString },
);

const garbageNumber: fc.Arbitrary<Fuzz> = fc.oneof(
  fc.constantFrom(0, -0, -1, 1, 0.5, -0.5, 2 ** 31 - 1, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, 1e21, Number.MAX_VALUE),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom('1e999', '-1e999', '123456789012345678901234567890', '1.0e+2', '-0.0').map((t) => new RawJson(t)),
);

/** Objects and arrays a few thousand levels deep, as raw JSON. */
const deepNesting: fc.Arbitrary<Fuzz> = fc
  .tuple(fc.integer({ min: 50, max: 5_000 }), fc.boolean())
  .map(
    ([depth, arrays]) =>
      new RawJson(arrays ? '['.repeat(depth) + ']'.repeat(depth) : '{"a":'.repeat(depth) + '1' + '}'.repeat(depth)),
  );

export const garbageKey = fc.oneof(
  fc.constantFrom(...PROTOTYPE_KEYS, '', ' ', 'a.b', '0'),
  fc.string({ maxLength: 12 }),
);

/** Any JSON value at all, a few levels deep. */
export const garbage: fc.Arbitrary<Fuzz> = fc.letrec<{ value: Fuzz }>((tie) => ({
  value: fc.oneof(
    { maxDepth: 3, depthSize: 'small' },
    { weight: 4, arbitrary: garbageString as fc.Arbitrary<Fuzz> },
    { weight: 2, arbitrary: garbageNumber },
    { weight: 1, arbitrary: fc.constantFrom<Fuzz>(null, true, false) },
    { weight: 1, arbitrary: fc.array(tie('value'), { maxLength: 4 }) },
    { weight: 1, arbitrary: fc.array(fc.tuple(garbageKey, tie('value')), { maxLength: 4 }).map((e) => new Entries(e)) },
    { weight: 1, arbitrary: deepNesting },
  ),
})).value;

function lowerBound(schema: Schema): number | undefined {
  if (typeof schema.exclusiveMinimum === 'number') return schema.exclusiveMinimum + 1;
  if (schema.minimum === undefined) return undefined;
  return schema.exclusiveMinimum === true ? schema.minimum + 1 : schema.minimum;
}

function upperBound(schema: Schema): number | undefined {
  if (typeof schema.exclusiveMaximum === 'number') return schema.exclusiveMaximum - 1;
  if (schema.maximum === undefined) return undefined;
  return schema.exclusiveMaximum === true ? schema.maximum - 1 : schema.maximum;
}

const INT32 = 2 ** 31 - 1;

/** Small numbers: the ids the world's rows really have. */
const smallId = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(1, 2, 3) },
  { weight: 1, arbitrary: fc.integer({ min: 4, max: 8 }) },
);

/** Values of the fuzz test's world (its buildWorld names them). */
const refs = (...keys: string[]) => keys.map((key) => new WorldRef(key));
const HASHES = refs('confirmedHash', 'requestedHash');
const PAYMENT_HASHES = refs('confirmedPaymentHash', 'requestedPaymentHash', 'pendingPaymentHash');
/** The world's days, a birth date, leap days real and not, the ends of the calendar. */
const DATES = [
  '2026-11-20',
  '2026-11-25',
  '2026-12-01',
  '2020-05-17',
  '2024-02-29',
  '2026-02-29',
  '0001-01-01',
  '9999-12-31',
];
const DATE_TIMES = [
  '2026-11-21T10:00:00Z',
  '2026-11-20T11:00:00Z',
  '2026-11-20T11:00:00.000Z',
  '2026-11-25T13:00:00-03:00',
  '2026-11-19T09:30:00Z',
];
const DAY_KEYS = ['20261120', '20261119', '20261231', '20260229', '20261118'];
const TIMES = ['09:00', '11:00', '17:30', '00:00', '23:59', '24:00'];
const ZONES = ['Europe/Lisbon', 'America/Sao_Paulo', 'UTC', 'Pacific/Kiritimati', 'Etc/GMT+12', 'Mars/Base', '+01:00'];

/** Values a field of this name takes in real requests: a request that carries them gets further. */
const HINTS: { name: RegExp; values: (string | WorldRef)[]; more?: fc.Arbitrary<string> }[] = [
  // The world's ids (path parameters and body fields alike): its customer's, its vet's, theirs and others'.
  { name: /^customer_id$/, values: refs('customerId', 'otherCustomerId') },
  { name: /customer_user_id/, values: refs('customerUserId', 'otherCustomerUserId') },
  { name: /vet_user_id/, values: refs('vetUserId', 'otherVetUserId') },
  { name: /^vet_id$/, values: refs('vetId', 'otherVetId') },
  { name: /^user_id$/, values: refs('customerUserId', 'vetUserId', 'managerUserId', 'otherCustomerUserId') },
  { name: /pet_id/, values: refs('petId', 'otherPetId') },
  { name: /profile_id/, values: refs('profileId', 'otherProfileId') },
  { name: /appointment_id|^id$/, values: refs('confirmedId', 'requestedId', 'pendingId') },
  { name: /event_id/, values: refs('holdEventId', 'pendingEventId') },
  { name: /auth_token/, values: refs('customerToken') },
  { name: /^token$/, values: refs('icsToken') },
  {
    name: /email/i,
    values: ['ana@example.test', 'rui@clinic.test', 'boss@clinic.test'],
    more: fc.oneof(
      fc.nat(999).map((n) => `new${n}@example.test`),
      fc.emailAddress(),
    ),
  },
  { name: /password|confirmation/i, values: ['secret-pass', 'another-pass-1'] },
  { name: /^payment_hash$/, values: PAYMENT_HASHES },
  { name: /^hash$|^param$/, values: [...HASHES, ...PAYMENT_HASHES] },
  { name: /date|birth|^from$|^to$/i, values: [...DATES, ...DAY_KEYS] },
  { name: /start|end/i, values: [...DATE_TIMES, ...TIMES] },
  { name: /schedule/, values: [...DATE_TIMES, '2026-11-20 11:00', '2026-11-25 13:00', '2026-11-20 24:00'] },
  { name: /tz|timezone/i, values: ZONES },
  { name: /card_number/, values: ['4242424242424242', '4000000000000002', '4000000000009995', '1234'] },
  { name: /expiry|cvc/, values: ['12/30', '01/20', '123', '1234'] },
  { name: /phone/, values: ['+351912345678', '912345678', '+5511987654321'] },
  { name: /postal_code|^code$/, values: ['1000-001', '1000001', '01310-100', '10001', '99999'] },
  { name: /species/i, values: ['Dog', 'Cat', 'Exotic', 'dog'] },
  { name: /policy/, values: ['POLICY12345', '', 'P1'] },
  { name: /^pin$/, values: ['123456', '654321', '000000'] },
];

function fits(schema: Schema, value: string | WorldRef): boolean {
  if (value instanceof WorldRef) return true;
  if (schema.pattern && !new RegExp(schema.pattern).test(value)) return false;
  return value.length >= (schema.minLength ?? 0) && value.length <= (schema.maxLength ?? Infinity);
}

/** The HINTS values for a field of this name that fit its schema (world values fit strings and integers). */
function hinted(schema: Schema, name: string, type: 'string' | 'integer'): fc.Arbitrary<Fuzz>[] {
  const hints = HINTS.filter((hint) => hint.name.test(name));
  const values = hints.flatMap((hint) =>
    hint.values.filter((value) => value instanceof WorldRef || (type === 'string' && fits(schema, value))),
  );
  const more = type === 'string' ? hints.flatMap((hint) => (hint.more ? [hint.more] : [])) : [];
  return [...(values.length > 0 ? [fc.constantFrom(...values)] : []), ...more];
}

function conformingString(schema: Schema, name: string): fc.Arbitrary<Fuzz> {
  const options: fc.Arbitrary<Fuzz>[] = [];
  if (schema.pattern) {
    try {
      options.push(fc.stringMatching(new RegExp(schema.pattern)));
    } catch {
      // A pattern fast-check cannot generate from: the other options stand in.
    }
    if (fits(schema, '1')) options.push(smallId.map(String));
  } else if (schema.format === 'date-time') {
    const dates = fc.date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true });
    options.push(dates.map((date) => date.toISOString()));
  } else {
    const minLength = schema.minLength ?? 0;
    const maxLength = Math.min(schema.maxLength ?? minLength + 40, minLength + 40);
    options.push(fc.string({ unit: 'grapheme', minLength, maxLength }));
    if (schema.maxLength !== undefined) options.push(fc.constant('w'.repeat(schema.maxLength)));
  }
  const hints = hinted(schema, name, 'string');
  if (hints.length === 0) return fc.oneof(...options);
  return fc.oneof({ weight: 3, arbitrary: fc.oneof(...hints) }, { weight: 1, arbitrary: fc.oneof(...options) });
}

function conformingObject(schema: Schema, mutate: boolean): fc.Arbitrary<Fuzz> {
  const required = new Set(schema.required ?? []);
  const properties = Object.entries(schema.properties ?? {}).map(([key, inner]) => {
    const value = valueFor(inner, key, mutate);
    // An optional property is there half the time; a required one always, unless mutating.
    const present =
      required.has(key) && !mutate ? value : fc.option(value, { freq: required.has(key) ? 15 : 2, nil: undefined });
    return present.map((item) => (item === undefined ? [] : [[key, item] as [string, Fuzz]]));
  });
  const extras = mutate
    ? fc.option(fc.array(fc.tuple(garbageKey, garbage), { minLength: 1, maxLength: 2 }), { freq: 8, nil: [] })
    : fc.constant([]);
  return fc
    .tuple(fc.tuple(...properties), extras)
    .map(([present, extra]) => new Entries([...present.flat(), ...extra]));
}

/** A value that fits `schema`. */
function conforming(schema: Schema, name: string, mutate: boolean): fc.Arbitrary<Fuzz> {
  const variants = schema.anyOf ?? schema.oneOf;
  if (variants && variants.length > 0) return fc.oneof(...variants.map((inner) => valueFor(inner, name, mutate)));
  if (schema.allOf?.[0]) return conforming(schema.allOf[0], name, mutate);
  if (schema.enum && schema.enum.length > 0) return fc.constantFrom(...(schema.enum as Fuzz[]));
  if (schema.const !== undefined) return fc.constant(schema.const as Fuzz);
  const types = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  const plain = types.filter((type) => type !== 'null');
  const base =
    plain.length > 1 ? fc.oneof(...plain.map((type) => conforming({ ...schema, type }, name, mutate))) : undefined;
  const nullable = schema.nullable === true || types.includes('null');
  const single = base ?? conformingOfType(plain[0], schema, name, mutate);
  return nullable ? fc.oneof({ weight: 5, arbitrary: single }, { weight: 1, arbitrary: fc.constant(null) }) : single;
}

function conformingOfType(type: string | undefined, schema: Schema, name: string, mutate: boolean): fc.Arbitrary<Fuzz> {
  switch (type) {
    case 'string':
      return conformingString(schema, name);
    case 'integer': {
      const min = lowerBound(schema) ?? -INT32;
      const max = upperBound(schema) ?? INT32;
      const fits = min <= 1 && max >= 8;
      const any = fc.integer({ min: Math.max(min, -(2 ** 53)), max: Math.min(max, 2 ** 53) });
      const options = [...hinted(schema, name, 'integer'), ...(fits ? [smallId] : []), any, fc.constantFrom(min, max)];
      return fc.oneof(...options);
    }
    case 'number': {
      const min = lowerBound(schema) ?? -1e9;
      const max = upperBound(schema) ?? 1e9;
      // Tenths too: a weight has one decimal place at most.
      const tenths = fc.integer({ min: Math.ceil(min * 10), max: Math.floor(max * 10) }).map((n) => n / 10);
      return fc.oneof(fc.double({ min, max, noNaN: true }), tenths, fc.constantFrom(min, max));
    }
    case 'boolean':
      return fc.boolean();
    case 'array':
      return fc.array(valueFor(schema.items ?? {}, name, mutate), {
        minLength: schema.minItems ?? 0,
        maxLength: Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, 3)),
      });
    case 'object':
      return conformingObject(schema, mutate);
    default:
      return garbage;
  }
}

/**
 * A value that fits `schema`, edge values included (they pass validation, so the service must cope with them); when
 * mutating, anything at all now and then at any depth, and required properties missing or unknown ones added.
 * `name` is the field's, for HINTS.
 */
function valueFor(schema: Schema, name: string, mutate: boolean): fc.Arbitrary<Fuzz> {
  if (!mutate) return conforming(schema, name, false);
  return fc.oneof({ weight: 9, arbitrary: conforming(schema, name, true) }, { weight: 1, arbitrary: garbage });
}

/** Half valid values, half valid ones with mutations. */
export function fuzzValue(schema: Schema, name = ''): fc.Arbitrary<Fuzz> {
  return fc.oneof(valueFor(schema, name, false), valueFor(schema, name, true));
}
