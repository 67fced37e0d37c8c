import dayjs from 'dayjs';
import 'dayjs/locale/pt';
import 'dayjs/locale/pt-br';
import customParseFormat from 'dayjs/plugin/customParseFormat';

// The calendars' month and weekday names (DatesProvider's locale) and strict parsing of typed dates.
dayjs.extend(customParseFormat);

/** `text` read strictly in one of `formats` ('15/0' is no date), as 'YYYY-MM-DD'; null when it is none. */
export function parseTypedDate(text: string, formats: string[]): string | null {
  const date = dayjs(text.trim(), formats, true);
  return date.isValid() ? date.format('YYYY-MM-DD') : null;
}
