/**
 * Control characters no text of ours carries: C0 controls except tab, line feed and carriage return (a
 * description has lines), and DEL. PostgreSQL refuses U+0000 in text outright; the rest would reach mails,
 * exports and calendar files unseen. Refused as 400 `invalid_format`, by the shared text fields and by the
 * server for every JSON body, query and path.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/;

export const hasControlCharacter = (text: string) => CONTROL_CHARACTER.test(text);
