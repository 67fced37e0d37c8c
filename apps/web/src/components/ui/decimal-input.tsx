import { type FocusEvent, type KeyboardEvent, useState } from 'react';
import { Text, TextInput, type TextInputProps, VisuallyHidden } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../../lib/i18n';
import { formatDecimal, readDecimal } from '../../lib/decimal';

export type DecimalValue = number | '';

export interface DecimalInputProps extends Omit<TextInputProps, 'value' | 'defaultValue' | 'onChange'> {
  /** A number, or '' when empty (a form may hold any other non-number while nothing valid is typed). */
  value?: unknown;
  onChange: (value: DecimalValue) => void;
  /** How many digits may follow the separator. */
  decimals: number;
  /** Shows every decimal when the field is left (27.50 rather than 27.5). */
  fixedDecimals?: boolean;
  /** Shown beside the number ('kg', 'EUR', '%') and read with the label. */
  unit?: string;
  /** ArrowUp and ArrowDown add or take this much, within min and max. */
  step?: number;
  min?: number;
  max?: number;
}

const isNumber = (value: unknown): value is number => typeof value === 'number' && Number.isFinite(value);

/**
 * A number with decimals, read the same in every language (docs/product-rules.md#validation Decimal fields): '.' and
 * ',' both separate the decimals and neither groups thousands; text that is not such a number is not taken, rather
 * than read as something else (Mantine's NumberInput read a '4.6' autofilled or put in at once as 46 in Portuguese).
 * Leaving the field shows the number it read, as the language writes it. The text changes only then (or when the
 * value is set from outside), never on focus, so what a person or a browser selects on entering stays selected.
 */
export function DecimalInput({
  value,
  onChange,
  decimals,
  fixedDecimals = false,
  unit,
  step,
  min,
  max,
  label,
  onBlur,
  onKeyDown,
  ...others
}: DecimalInputProps) {
  useTranslation();
  const locale = currentLocale();
  const shown = (number: unknown) => (isNumber(number) ? formatDecimal(number, locale, decimals, fixedDecimals) : '');
  const [text, setText] = useState(() => shown(value));
  // A value set from outside (a reset, another record) or a new language replaces the text; the value the text
  // itself gave does not, so '4.' stays while it is typed.
  const [followed, setFollowed] = useState({ value, locale });
  if (followed.value !== value || followed.locale !== locale) {
    setFollowed({ value, locale });
    if (followed.locale !== locale || value !== readDecimal(text, decimals)) setText(shown(value));
  }

  function take(next: string, reading: DecimalValue) {
    setText(next);
    setFollowed({ value: reading, locale });
    onChange(reading);
  }

  function stepBy(direction: 1 | -1) {
    if (!step) return;
    const start = isNumber(value) ? value : (min ?? 0);
    let next = Number((start + direction * step).toFixed(decimals));
    if (min !== undefined) next = Math.max(min, next);
    if (max !== undefined) next = Math.min(max, next);
    take(shown(next), next);
  }

  return (
    <TextInput
      inputMode="decimal"
      autoComplete="off"
      label={
        label && unit ? (
          <>
            {label} <VisuallyHidden>({unit})</VisuallyHidden>
          </>
        ) : (
          label
        )
      }
      rightSection={
        unit ? (
          <Text size="sm" c="dimmed" aria-hidden>
            {unit}
          </Text>
        ) : undefined
      }
      {...others}
      value={text}
      onChange={(event) => {
        const next = event.currentTarget.value;
        const reading = readDecimal(next, decimals);
        // Not taken: React puts the text back as it was.
        if (reading !== null) take(next, reading);
      }}
      onBlur={(event: FocusEvent<HTMLInputElement>) => {
        const reading = readDecimal(text, decimals);
        if (reading !== null) setText(shown(reading));
        onBlur?.(event);
      }}
      onKeyDown={(event: KeyboardEvent<HTMLInputElement>) => {
        onKeyDown?.(event);
        if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
          event.preventDefault();
          stepBy(event.key === 'ArrowUp' ? 1 : -1);
        }
      }}
    />
  );
}
