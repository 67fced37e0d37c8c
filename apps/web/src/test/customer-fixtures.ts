import type { Customer } from '@vetcall/shared/schemas/customer';
import type { Pet } from '@vetcall/shared/schemas/pet';

/** A customer as GET /api/users/customer/byemail answers, for screens that read one. */
export const rita: Customer = {
  user_id: 5,
  customer_id: 3,
  name: 'Rita Carvalho',
  email: 'rita@example.test',
  phone: '912 000 111',
  tax_id: '245678901',
  address: 'Rua dos Açores',
  postal_code: '1000-001',
  city: 'Lisboa',
  state: 'Lisboa',
  country: 'PT',
  vet_center: '',
};

/** A pet of {@link rita}, as GET /api/pets/customer answers: a neutered dog unless told otherwise. */
export const petOf = (fields: Partial<Pet> & Pick<Pet, 'pet_id' | 'name'>): Pet => ({
  user_id: 5,
  customer_id: 3,
  species: 'Dog',
  breed_id: 3,
  breed: 'Labrador Retriever',
  gender: 'M',
  birth: '2020-01-15',
  fertile_status: 'neutered',
  weight: 31.4,
  policy: null,
  archived: false,
  ...fields,
});
