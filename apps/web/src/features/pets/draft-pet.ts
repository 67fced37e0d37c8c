import type { Pet, PetInput } from '@vetcall/shared/schemas/pet';

/**
 * A pet as edited on the customer screen before Save (docs/product-rules.md#states Pets): new pets have pet_id 0, and
 * pet_pos is the row's position in the edited customer.
 */
export interface DraftPet extends Required<Omit<PetInput, 'policy'>> {
  pet_id: number;
  pet_pos: number;
  policy: string | null;
  /** The breed as shown (catalogue name in the viewer's language, or the free text). */
  breed_label: string;
}

export function draftFromPet(pet: Pet, position: number): DraftPet {
  return {
    pet_id: pet.pet_id,
    pet_pos: position,
    name: pet.name,
    species: pet.species,
    breed_id: pet.breed_id,
    breed: pet.breed_id === null ? pet.breed : '',
    breed_label: pet.breed,
    gender: pet.gender,
    birth: pet.birth,
    fertile_status: pet.fertile_status,
    weight: pet.weight,
    policy: pet.policy,
  };
}

export function inputFromDraft(draft: DraftPet): PetInput {
  return {
    name: draft.name,
    species: draft.species,
    breed_id: draft.breed_id,
    breed: draft.breed,
    gender: draft.gender,
    birth: draft.birth,
    fertile_status: draft.fertile_status,
    weight: draft.weight,
    policy: draft.policy,
  };
}
