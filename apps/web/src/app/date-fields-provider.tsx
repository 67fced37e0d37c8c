import { type ReactNode, useMemo } from 'react';
import { MantineThemeProvider, createTheme } from '@mantine/core';
import { type DateInputProps, DatesProvider } from '@mantine/dates';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@vetcall/shared/locales';
import { currentLocale } from '../lib/i18n';
import { parseTypedDate } from './date-parsing';

/** Month and weekday names of the calendars. */
const DAYJS_LOCALE: Record<Locale, string> = { en: 'en', pt: 'pt', 'pt-BR': 'pt-br' };

/**
 * How a date is written in a date field: the person's language decides, not the browser's (a native date
 * input shows mm/dd/yyyy to a Portuguese reader whose browser is in English). Each language also accepts
 * the unpadded spelling (5/3/2027) and YYYY-MM-DD, which is what gets pasted.
 */
const DATE_FIELD_FORMATS: Record<Locale, { shown: string; typed: string[] }> = {
  en: { shown: 'MM/DD/YYYY', typed: ['MM/DD/YYYY', 'M/D/YYYY', 'YYYY-MM-DD'] },
  pt: { shown: 'DD/MM/YYYY', typed: ['DD/MM/YYYY', 'D/M/YYYY', 'YYYY-MM-DD'] },
  'pt-BR': { shown: 'DD/MM/YYYY', typed: ['DD/MM/YYYY', 'D/M/YYYY', 'YYYY-MM-DD'] },
};

/**
 * Every `DateInput` of the app follows the interface language: calendar names, the shown and typed format,
 * the placeholder and the calendar buttons' names. Values stay 'YYYY-MM-DD' strings.
 */
export function DateFieldsProvider({ children }: { children: ReactNode }) {
  // useTranslation re-renders this on a language change; currentLocale reads the new one.
  const { t } = useTranslation();
  const locale = currentLocale();
  const dateFields = useMemo(() => {
    const formats = DATE_FIELD_FORMATS[locale];
    return createTheme({
      components: {
        // A plain theme entry rather than DateInput.extend(...): importing DateInput here would put the whole
        // calendar in the first chunk, which the login page loads (issue 16).
        DateInput: {
          defaultProps: {
            valueFormat: formats.shown,
            // Strict, so a half-typed date ('15/0') is not read as some other day.
            dateParser: (text) => parseTypedDate(text, formats.typed),
            placeholder: t('dates.placeholder'),
            ariaLabels: {
              previousMonth: t('dates.previous_month'),
              nextMonth: t('dates.next_month'),
              previousYear: t('dates.previous_year'),
              nextYear: t('dates.next_year'),
              previousDecade: t('dates.previous_decade'),
              nextDecade: t('dates.next_decade'),
              // The month and year buttons keep the name they show ("November 2026"): a label of their
              // own would not contain it (WCAG 2.5.3).
            },
            // The calendar opens inside the field's landmark or dialog, not loose at the end of the page;
            // always below the field, since above it a dialog's scrolling box would cut it off.
            popoverProps: { withinPortal: false, middlewares: { flip: false, shift: true } },
            // The neighbouring months' days would be drawn at half opacity, below 4.5:1.
            hideOutsideDates: true,
          } satisfies Partial<DateInputProps>,
        },
      },
    });
  }, [locale, t]);
  return (
    <DatesProvider settings={{ locale: DAYJS_LOCALE[locale] }}>
      <MantineThemeProvider theme={dateFields}>{children}</MantineThemeProvider>
    </DatesProvider>
  );
}
