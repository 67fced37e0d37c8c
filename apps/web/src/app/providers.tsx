import { type ReactNode, useMemo } from 'react';
import { MantineProvider, MantineThemeProvider, createTheme } from '@mantine/core';
import { DateInput, DatesProvider } from '@mantine/dates';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import dayjs from 'dayjs';
import 'dayjs/locale/pt';
import 'dayjs/locale/pt-br';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import { useTranslation } from 'react-i18next';
import type { Locale } from '@vetcall/shared/locales';
import { currentLocale } from '../lib/i18n';
import { cssVariablesResolver, theme } from './theme';

dayjs.extend(customParseFormat);

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 },
      mutations: { retry: false },
    },
  });
}

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
function DateFieldsProvider({ children }: { children: ReactNode }) {
  // useTranslation re-renders this on a language change; currentLocale reads the new one.
  const { t } = useTranslation();
  const locale = currentLocale();
  const dateFields = useMemo(() => {
    const formats = DATE_FIELD_FORMATS[locale];
    return createTheme({
      components: {
        DateInput: DateInput.extend({
          defaultProps: {
            valueFormat: formats.shown,
            // Strict, so a half-typed date ('15/0') is not read as some other day.
            dateParser: (text) => {
              const date = dayjs(text.trim(), formats.typed, true);
              return date.isValid() ? date.format('YYYY-MM-DD') : null;
            },
            placeholder: t('dates.placeholder'),
            ariaLabels: {
              previousMonth: t('dates.previous_month'),
              nextMonth: t('dates.next_month'),
              previousYear: t('dates.previous_year'),
              nextYear: t('dates.next_year'),
              previousDecade: t('dates.previous_decade'),
              nextDecade: t('dates.next_decade'),
              monthLevelControl: t('dates.choose_month'),
              yearLevelControl: t('dates.choose_year'),
            },
          },
        }),
      },
    });
  }, [locale, t]);
  return (
    <DatesProvider settings={{ locale: DAYJS_LOCALE[locale] }}>
      <MantineThemeProvider theme={dateFields}>{children}</MantineThemeProvider>
    </DatesProvider>
  );
}

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
        <DateFieldsProvider>
          <ModalsProvider>
            <Notifications position="top-right" limit={4} />
            {children}
          </ModalsProvider>
        </DateFieldsProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
