import { SCHEDULING_WINDOW_MONTHS } from '@vetcall/shared/constants';
import { lastBookableDate as lastBookableDateAfter } from '@vetcall/shared/dates';

/** The last date a customer may book: one month from today; the server refuses later dates too. */
export const lastBookableDate = (today: string): string => lastBookableDateAfter(today, SCHEDULING_WINDOW_MONTHS);
