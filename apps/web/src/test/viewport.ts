/** The width the mocked `matchMedia` (test/setup.ts) answers width queries for; a desktop's by default. */
export const DESKTOP_WIDTH = 1280;
export const PHONE_WIDTH = 390;

let width = DESKTOP_WIDTH;

/** Answers `(max-width: …)` and `(min-width: …)` in px or em for the current width; other queries do not match. */
export function matchesWidthQuery(query: string): boolean {
  const conditions = [...query.matchAll(/\((max|min)-width:\s*([\d.]+)(px|em|rem)\)/g)];
  if (conditions.length === 0) return false;
  return conditions.every(([, bound, value, unit]) => {
    const px = Number(value) * (unit === 'px' ? 1 : 16);
    return bound === 'max' ? width <= px : width >= px;
  });
}

/** Makes the mocked `matchMedia` answer as a window `next` px wide (reset after each test). */
export function setViewportWidth(next: number) {
  width = next;
}
