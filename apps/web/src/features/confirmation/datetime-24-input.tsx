import { forwardRef } from 'react';
import { Group, Input, NativeSelect } from '@mantine/core';
import { DateInput } from '@mantine/dates';
import { useTranslation } from 'react-i18next';

/** Every five minutes of a day, 24-hour ('00:00' … '23:55'). */
const TIMES = Array.from({ length: 288 }, (_, index) => {
  const minutes = index * 5;
  return `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
});

/**
 * docs/product-rules.md#confirmation-page: a 24-hour date-time picker. A native datetime-local input shows AM/PM in
 * some browser languages, so the date and the time are two fields: a date input and a 24-hour time list. The value is
 * 'YYYY-MM-DDTHH:mm' (the browser's wall clock), as a datetime-local input's would be.
 */
export const DateTime24Input = forwardRef<
  HTMLInputElement,
  {
    label: string;
    description?: string;
    value: string;
    min?: string;
    error?: React.ReactNode;
    required?: boolean;
    onChange: (value: string) => void;
    onBlur?: () => void;
  }
>(function DateTime24Input({ label, description, value, min, error, required, onChange, onBlur }, ref) {
  const { t } = useTranslation();
  const [date = '', time = ''] = value.split('T');
  // A booked time off the five-minute grid stays selectable.
  const times = time && !TIMES.includes(time) ? [...TIMES, time].sort() : TIMES;
  return (
    <Input.Wrapper label={label} description={description} error={error} required={required} component="fieldset">
      <Group gap="sm" align="flex-start" wrap="nowrap">
        <DateInput
          ref={ref}
          aria-label={t('confirm_appointment.date')}
          value={date}
          minDate={min?.slice(0, 10)}
          error={Boolean(error)}
          onChange={(picked) => onChange(`${picked ?? ''}T${time || '09:00'}`)}
          onBlur={onBlur}
          style={{ flex: 1 }}
        />
        <NativeSelect
          aria-label={t('confirm_appointment.time')}
          value={time}
          error={Boolean(error)}
          data={times}
          onChange={(event) => onChange(`${date}T${event.currentTarget.value}`)}
          onBlur={onBlur}
          w={120}
        />
      </Group>
    </Input.Wrapper>
  );
});
