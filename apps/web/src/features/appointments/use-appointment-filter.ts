import { useMemo, useState } from 'react';
import { todayKey } from '@vetcall/shared/dates';
import { browserTimeZone } from '../../lib/format';
import { defaultFilter, filterDateBounds, filterProblems } from './appointment-filters';

/**
 * The filter of an appointment list, by the viewer's own day: the default window around today, its
 * problems, `dateRange` for DateRangeFields, and `reset` back to the default.
 */
export function useAppointmentFilter() {
  const timeZone = useMemo(() => browserTimeZone(), []);
  const today = useMemo(() => todayKey(new Date(), timeZone), [timeZone]);
  const bounds = filterDateBounds(today);
  const [filter, setFilter] = useState(() => defaultFilter(today));
  const problems = filterProblems(filter, bounds);
  return {
    timeZone,
    filter,
    setFilter,
    valid: Object.keys(problems).length === 0,
    reset: () => setFilter(defaultFilter(today)),
    dateRange: {
      from: filter.from,
      to: filter.to,
      bounds,
      problems,
      onChange: (range: { from: string; to: string }) => setFilter({ ...filter, ...range }),
    },
  };
}
