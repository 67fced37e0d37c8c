import { DateInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import { translateFieldError } from '../../../lib/form-errors';
import { formatDateKey } from '../../../lib/format';
import { currentLocale } from '../../../lib/i18n';
import type { DateBounds } from '../appointment-filters';

/** The height of an input's label: buttons beside labelled inputs start this far down to line up. */
export const BELOW_INPUT_LABEL = 'calc(var(--mantine-font-size-sm) * var(--mantine-line-height))';

const LABEL_KEYS = { from: 'appointments.from', to: 'appointments.to' } as const;

/**
 * From and To of the appointment lists (docs/product-rules.md#validation Appointment date filters), with their
 * problems.
 */
export function DateRangeFields({
  from,
  to,
  bounds,
  problems,
  onChange,
}: {
  from: string;
  to: string;
  bounds: DateBounds;
  problems: { from?: string; to?: string };
  onChange: (range: { from: string; to: string }) => void;
}) {
  const { t } = useTranslation();
  const locale = currentLocale();
  function message(code: string | undefined) {
    if (code === 'out_of_range') {
      return t('appointments.date_out_of_range', {
        min: formatDateKey(bounds.min, locale),
        max: formatDateKey(bounds.max, locale),
      });
    }
    if (code === 'before_from') return t('appointments.to_before_from');
    return translateFieldError(t, code);
  }
  const value = { from, to };
  return (
    <>
      {(['from', 'to'] as const).map((field) => (
        <DateInput
          key={field}
          label={t(LABEL_KEYS[field])}
          required
          minDate={bounds.min}
          maxDate={bounds.max}
          value={value[field]}
          error={message(problems[field])}
          onChange={(date) => onChange({ ...value, [field]: date ?? '' })}
        />
      ))}
    </>
  );
}
