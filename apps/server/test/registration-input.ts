/** A complete, valid customer registration (POST /api/users/customer) with the given password, and `patch` over it. */
export function registrationInput(password = 'amber kettle 42', patch: Record<string, unknown> = {}) {
  return {
    name: 'Carla Sousa',
    email: 'carla@clinic.test',
    phone: '934567890',
    tax_id: '987654321',
    address: 'Avenida da Boavista 100',
    postal_code: '4100-112',
    city: 'Porto',
    state: 'Porto',
    country: 'PT',
    password,
    confirmation: password,
    ...patch,
  };
}
