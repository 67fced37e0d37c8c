import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { DATE_FLOOR, PET_WEIGHT_MAX, PET_WEIGHT_STEP, POLICY_MAX, POLICY_MIN } from '../constants.ts';
import { todayKey } from '../dates.ts';
import { fieldErrorsFromIssues } from './fields.ts';
import { petDeletionSchema, petIdParamsSchema, petInputSchemaFor, petRecordSchema, petSchema } from './pet.ts';

function fieldsOf(schema: z.ZodType, input: unknown) {
  const result = schema.safeParse(input);
  if (result.success) return {};
  return fieldErrorsFromIssues(result.error.issues);
}

/** The schema as of the clinic's 15 June 2030. */
const petInputSchema = petInputSchemaFor(() => '2030-06-15');

const pet = {
  name: 'Bobi',
  species: 'Dog',
  gender: 'M',
  birth: '2020-05-17',
  fertile_status: 'intact',
  weight: 12.5,
};

describe('petInputSchema (docs/product-rules.md#entities Pet, #validation Pet)', () => {
  it('accepts a pet and fills the defaults: no catalogue breed, empty free-text breed, no policy', () => {
    expect(petInputSchema.parse(pet)).toEqual({ ...pet, breed_id: null, breed: '', policy: null });
  });

  it('trims the text fields', () => {
    const parsed = petInputSchema.parse({ ...pet, name: '  Bobi ', species: ' Rabbit ', breed: ' Angora ' });
    expect(parsed).toMatchObject({ name: 'Bobi', species: 'Rabbit', breed: 'Angora' });
  });

  it.each(['name', 'species', 'gender', 'birth', 'fertile_status', 'weight'] as const)('requires %s', (field) => {
    const { [field]: _omitted, ...without } = pet;
    expect(fieldsOf(petInputSchema, without)).toEqual({ [field]: 'required' });
  });

  it('reports every missing field at once', () => {
    expect(fieldsOf(petInputSchema, {})).toEqual({
      name: 'required',
      species: 'required',
      gender: 'required',
      birth: 'required',
      fertile_status: 'required',
      weight: 'required',
    });
  });

  describe('name', () => {
    it('needs at least 2 characters after trimming', () => {
      expect(fieldsOf(petInputSchema, { ...pet, name: '' })).toEqual({ name: 'required' });
      expect(fieldsOf(petInputSchema, { ...pet, name: '   ' })).toEqual({ name: 'required' });
      expect(fieldsOf(petInputSchema, { ...pet, name: 'B' })).toEqual({ name: 'too_short' });
      expect(fieldsOf(petInputSchema, { ...pet, name: ' B ' })).toEqual({ name: 'too_short' });
      expect(fieldsOf(petInputSchema, { ...pet, name: 'Bo' })).toEqual({});
      expect(fieldsOf(petInputSchema, { ...pet, name: 'x'.repeat(61) })).toEqual({ name: 'too_long' });
    });
  });

  describe('species and breed', () => {
    it.each(['Dog', 'Cat', 'Other', 'Rabbit', 'Cão', 'Gato', 'Ox'])('accepts the species %j', (species) => {
      expect(fieldsOf(petInputSchema, { ...pet, species })).toEqual({});
    });

    it('needs a free-text species of at least 2 characters', () => {
      expect(fieldsOf(petInputSchema, { ...pet, species: 'X' })).toEqual({ species: 'too_short' });
      expect(fieldsOf(petInputSchema, { ...pet, species: '  ' })).toEqual({ species: 'required' });
      expect(fieldsOf(petInputSchema, { ...pet, species: 'x'.repeat(41) })).toEqual({ species: 'too_long' });
    });

    it('takes a free-text breed of at least 2 characters, or none', () => {
      expect(fieldsOf(petInputSchema, { ...pet, breed: 'Podengo' })).toEqual({});
      expect(fieldsOf(petInputSchema, { ...pet, breed: 'Po' })).toEqual({});
      expect(fieldsOf(petInputSchema, { ...pet, breed: '' })).toEqual({});
      expect(petInputSchema.parse({ ...pet, breed: '   ' }).breed).toBe('');
      expect(fieldsOf(petInputSchema, { ...pet, breed: 'P' })).toEqual({ breed: 'too_short' });
      expect(fieldsOf(petInputSchema, { ...pet, breed: ' P ' })).toEqual({ breed: 'too_short' });
      expect(fieldsOf(petInputSchema, { ...pet, breed: 'x'.repeat(61) })).toEqual({ breed: 'too_long' });
    });

    it('takes a catalogue breed id: a positive integer or null (the catalogue itself is checked by the server)', () => {
      expect(petInputSchema.parse({ ...pet, breed_id: 1003 }).breed_id).toBe(1003);
      expect(petInputSchema.parse({ ...pet, breed_id: null }).breed_id).toBeNull();
      for (const breed_id of [0, -1, 1.5, '1003']) {
        expect(fieldsOf(petInputSchema, { ...pet, breed_id }), String(breed_id)).toHaveProperty('breed_id');
      }
    });
  });

  describe('gender and fertile status', () => {
    it.each(['F', 'M'])('accepts the gender %s', (gender) => {
      expect(fieldsOf(petInputSchema, { ...pet, gender })).toEqual({});
    });

    it.each(['intact', 'neutered'])('accepts the fertile status %s', (fertile_status) => {
      expect(fieldsOf(petInputSchema, { ...pet, fertile_status })).toEqual({});
    });

    it('refuses other values', () => {
      for (const gender of ['f', 'X', '', null]) {
        expect(fieldsOf(petInputSchema, { ...pet, gender }), String(gender)).toHaveProperty('gender');
      }
      for (const fertile_status of ['spayed', 'Intact', '', null]) {
        expect(fieldsOf(petInputSchema, { ...pet, fertile_status }), String(fertile_status)).toHaveProperty(
          'fertile_status',
        );
      }
    });
  });

  describe('weight: 0 to 999, step 0.1', () => {
    it('uses the constants of docs/product-rules.md#limits', () => {
      expect(PET_WEIGHT_MAX).toBe(999);
      expect(PET_WEIGHT_STEP).toBe(0.1);
    });

    it.each([0, 0.1, 1, 10.3, 12.5, 33.3, 0.1 + 0.2, 1.1 * 3, 100.7, 998.9, 999])('accepts %d', (weight) => {
      expect(fieldsOf(petInputSchema, { ...pet, weight })).toEqual({});
    });

    it('accepts every tenth from 0 to 999, however floating point renders it', () => {
      const weightField = petInputSchema.shape.weight;
      const refused: number[] = [];
      for (let tenths = 0; tenths <= 9990; tenths++) {
        for (const weight of [tenths / 10, tenths * 0.1, Number((tenths * 0.1).toFixed(1))]) {
          if (!weightField.safeParse(weight).success) refused.push(weight);
        }
      }
      expect(refused).toEqual([]);
    });

    it.each([10.25, 0.05, 12.34, 998.95, 0.01, 10.300001])(
      'refuses %d (finer than a tenth) as invalid_format',
      (weight) => {
        expect(fieldsOf(petInputSchema, { ...pet, weight })).toEqual({ weight: 'invalid_format' });
      },
    );

    it('refuses weights out of range', () => {
      expect(fieldsOf(petInputSchema, { ...pet, weight: -0.1 })).toEqual({ weight: 'too_small' });
      expect(fieldsOf(petInputSchema, { ...pet, weight: -1 })).toEqual({ weight: 'too_small' });
      expect(fieldsOf(petInputSchema, { ...pet, weight: 999.1 })).toEqual({ weight: 'too_big' });
      expect(fieldsOf(petInputSchema, { ...pet, weight: 1000 })).toEqual({ weight: 'too_big' });
    });

    it('refuses non-numbers', () => {
      for (const weight of ['12.5', null, Number.NaN, Number.POSITIVE_INFINITY]) {
        expect(fieldsOf(petInputSchema, { ...pet, weight }), String(weight)).toHaveProperty('weight');
      }
      expect(fieldsOf(petInputSchema, { ...pet, weight: '12.5' })).toEqual({ weight: 'required' });
    });
  });

  describe('birth: between 1950-01-01 and the clinic’s today', () => {
    it('accepts the floor and refuses the day before it', () => {
      expect(DATE_FLOOR).toBe('1950-01-01');
      expect(fieldsOf(petInputSchema, { ...pet, birth: '1950-01-01' })).toEqual({});
      expect(fieldsOf(petInputSchema, { ...pet, birth: '1949-12-31' })).toEqual({ birth: 'too_small' });
      expect(fieldsOf(petInputSchema, { ...pet, birth: '1900-01-01' })).toEqual({ birth: 'too_small' });
    });

    it('accepts today as the latest day and refuses the day after, asking for today at each check', () => {
      let today = '2030-06-15';
      const schema = petInputSchemaFor(() => today);
      expect(fieldsOf(schema, { ...pet, birth: '2030-06-15' })).toEqual({});
      expect(fieldsOf(schema, { ...pet, birth: '2030-06-16' })).toEqual({ birth: 'too_big' });
      today = '2030-12-31';
      expect(fieldsOf(schema, { ...pet, birth: '2030-12-31' })).toEqual({});
      expect(fieldsOf(schema, { ...pet, birth: '2031-01-01' })).toEqual({ birth: 'too_big' });
    });

    it('at 23:30 UTC on 24 November, a clinic in Lisbon refuses the 25th that UTC+14 would take', () => {
      const now = new Date('2026-11-24T23:30:00Z');
      const lisbon = petInputSchemaFor(() => todayKey(now, 'Europe/Lisbon'));
      expect(fieldsOf(lisbon, { ...pet, birth: '2026-11-24' })).toEqual({});
      expect(fieldsOf(lisbon, { ...pet, birth: '2026-11-25' })).toEqual({ birth: 'too_big' });
    });

    it.each(['2020-02-30', '2021-02-29', '2020-13-01', '2020-00-10', '2020-5-17', '17-05-2020', '2020/05/17', 'soon'])(
      'refuses the malformed or impossible date %j as invalid_format',
      (birth) => {
        expect(fieldsOf(petInputSchema, { ...pet, birth })).toEqual({ birth: 'invalid_format' });
      },
    );

    it('accepts 29 February of a leap year and refuses a date with a time', () => {
      expect(fieldsOf(petInputSchema, { ...pet, birth: '2024-02-29' })).toEqual({});
      expect(fieldsOf(petInputSchema, { ...pet, birth: '2024-02-28T00:00:00Z' })).toEqual({ birth: 'invalid_format' });
    });

    it('requires the birth', () => {
      expect(fieldsOf(petInputSchema, { ...pet, birth: '' })).toEqual({ birth: 'required' });
      expect(fieldsOf(petInputSchema, { ...pet, birth: null })).toEqual({ birth: 'required' });
    });
  });

  describe('policy: 8 to 19 letters or digits, optional', () => {
    it('uses the constants of docs/product-rules.md#limits', () => {
      expect([POLICY_MIN, POLICY_MAX]).toEqual([8, 19]);
    });

    it.each(['ABCD1234', '12345678', 'abcdefgh', 'A1b2C3d4E5f6G7h8I9j', 'POL00012345'])('accepts %j', (policy) => {
      expect(petInputSchema.parse({ ...pet, policy }).policy).toBe(policy);
    });

    it('trims the policy; an empty or absent one means none', () => {
      expect(petInputSchema.parse({ ...pet, policy: '  ABCD1234 ' }).policy).toBe('ABCD1234');
      expect(petInputSchema.parse({ ...pet, policy: '' }).policy).toBe('');
      expect(petInputSchema.parse({ ...pet, policy: null }).policy).toBeNull();
      expect(petInputSchema.parse(pet).policy).toBeNull();
    });

    it.each([
      ['7 characters', 'ABC1234'],
      ['20 characters', 'A1b2C3d4E5f6G7h8I9j0'],
      ['a dash', 'ABCD-1234'],
      ['an inner space', 'ABCD 1234'],
      ['an accented letter', 'ÁBCD1234'],
      ['a symbol', 'ABCD1234!'],
    ])('refuses a policy with %s as invalid_format', (_label, policy) => {
      expect(fieldsOf(petInputSchema, { ...pet, policy })).toEqual({ policy: 'invalid_format' });
    });
  });
});

describe('pet answer and parameter schemas', () => {
  it('pet ids in paths are positive integers', () => {
    expect(petIdParamsSchema.parse({ pet_id: '42' })).toEqual({ pet_id: 42 });
    for (const pet_id of ['0', '-1', '1.5', 'abc']) {
      expect(petIdParamsSchema.safeParse({ pet_id }).success, pet_id).toBe(false);
    }
  });

  it('a pet answer carries its owner and archive flag, and no secrets', () => {
    const answer = {
      pet_id: 1,
      user_id: 2,
      customer_id: 3,
      ...pet,
      breed_id: null,
      breed: '',
      policy: null,
      archived: false,
    };
    expect(petSchema.parse({ ...answer, passwordHash: 'x' })).toEqual(answer);
    expect(petDeletionSchema.parse({ pet_id: 1, archived: true })).toEqual({ pet_id: 1, archived: true });
    expect(
      petRecordSchema.safeParse({ pet: answer, age: { years: 1, months: 2 }, history: [], history_next_cursor: null })
        .success,
    ).toBe(true);
  });
});
