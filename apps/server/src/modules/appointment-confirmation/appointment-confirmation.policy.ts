/**
 * Confirmation needs no login (the vet opens it from an email): the hash of the link and the registered
 * email of the vet who owns the appointment, an active account, together are the credential.
 */
export const canConfirmAppointment = (email: string, vet: { email: string; active: boolean }) =>
  vet.active && email.trim().toLowerCase() === vet.email;
