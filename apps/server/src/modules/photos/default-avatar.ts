/** Escapes text for an XML text node or attribute value. */
export function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Titles written before a name ("Dr. João Silva" is JS, not DS). */
const HONORIFIC = /^(dr|dra|dr\.ª|prof|profa|sr|sra|mr|mrs|ms|mx)\.?$/iu;

/**
 * Up to two initials (first and last word, titles skipped), upper-cased; '?' for a name without
 * letters or digits.
 */
export function initialsOf(name: string): string {
  const tokens = name.normalize('NFC').split(/\s+/).filter(Boolean);
  const named = tokens.length > 1 ? tokens.filter((token) => !HONORIFIC.test(token)) : tokens;
  const words = (named.length > 0 ? named : tokens).map((word) => word.replace(/[^\p{L}\p{N}]/gu, '')).filter(Boolean);
  if (words.length === 0) return '?';
  const first = Array.from(words[0]!)[0]!;
  const last = words.length > 1 ? Array.from(words.at(-1)!)[0]! : '';
  return (first + last).toLocaleUpperCase();
}

/** A stable hue per user id: the golden angle spreads consecutive ids around the colour wheel. */
export function hueOf(userId: number): number {
  return Math.round((userId * 137.508) % 360);
}

/**
 * The avatar of a user without a photo: their initials on a colour derived from the id, as a small
 * self-contained SVG (no scripts, no external references; the text is escaped). Without initials
 * (customers: the image is public, so their names stay out of it) a plain head-and-shoulders figure.
 */
export function renderDefaultAvatar(userId: number, initials: string | undefined): string {
  const background = `hsl(${hueOf(userId)}, 45%, 42%)`;
  const figure =
    initials === undefined
      ? '<circle cx="256" cy="200" r="92" fill="#ffffff" fill-opacity=".85"/>' +
        '<path d="M96 448c0-88 72-144 160-144s160 56 160 144z" fill="#ffffff" fill-opacity=".85"/>'
      : '<text x="50%" y="50%" dy=".35em" text-anchor="middle" fill="#ffffff" ' +
        'font-family="system-ui, -apple-system, Segoe UI, Roboto, Helvetica, Arial, sans-serif" ' +
        `font-size="208" font-weight="600">${escapeXml(initials)}</text>`;
  return (
    '<svg xmlns="http://www.w3.org/2000/svg" width="512" height="512" viewBox="0 0 512 512">' +
    `<rect width="512" height="512" fill="${background}"/>${figure}</svg>`
  );
}
