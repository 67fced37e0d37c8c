/** A working week for a test vet: Monday to Friday, one interval from `start` to `end` (HH:MM) each day. */
export const weekdays = (start: string, end: string) =>
  [1, 2, 3, 4, 5].map((dayOfWeek) => ({ dayOfWeek, workingIntervals: [{ start, end }] }));
