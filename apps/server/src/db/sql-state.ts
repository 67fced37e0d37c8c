/** The SQLSTATE of a failed statement; drizzle wraps the driver's error in `cause`. */
export function sqlState(error: unknown): string | undefined {
  const withCode = error as { code?: unknown; cause?: { code?: unknown } } | null;
  const code = withCode?.cause?.code ?? withCode?.code;
  return typeof code === 'string' ? code : undefined;
}

/** unique_violation: a concurrent request took the same unique value between check and write. */
export const isUniqueViolation = (error: unknown) => sqlState(error) === '23505';

/** exclusion_violation: calendar_events_no_overlap refused an overlapping live entry. */
export const isExclusionViolation = (error: unknown) => sqlState(error) === '23P01';
