/** `VetCall <no-reply@clinic.example>` or a bare address, as a name and an address (the name may be ''). */
export function parseMailbox(value: string): { name: string; email: string } {
  const match = /^\s*"?([^"<]*?)"?\s*<([^<>\s]+)>\s*$/.exec(value);
  if (match) return { name: match[1]!.trim(), email: match[2]! };
  return { name: '', email: value.trim() };
}

/** The clinic as the organizer of every invitation: MAIL_FROM's name (VetCall when it has none) and address. */
export function organizerOf(mailFrom: string): { name: string; email: string } {
  const { name, email } = parseMailbox(mailFrom);
  return { name: name || 'VetCall', email };
}
