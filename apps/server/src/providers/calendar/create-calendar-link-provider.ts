import type { AppContext } from '../../context.ts';
import { createAurinkoCalendarProvider } from './aurinko.ts';
import { createBuiltinCalendarProvider } from './builtin.ts';
import type { CalendarLinkProvider } from './calendar-link-provider.ts';

/** The provider CALENDAR_PROVIDER names. */
export function createCalendarLinkProvider(deps: Pick<AppContext, 'config' | 'db' | 'clock'>): CalendarLinkProvider {
  const { calendar, publicUrl } = deps.config;
  if (calendar.provider === 'aurinko') {
    if (!calendar.clientId) throw new Error('AURINKO_CLIENT_ID is required with CALENDAR_PROVIDER=aurinko');
    return createAurinkoCalendarProvider({
      baseUrl: calendar.aurinkoUrl,
      clientId: calendar.clientId,
      serviceType: calendar.serviceType,
      publicUrl,
    });
  }
  return createBuiltinCalendarProvider({ publicUrl, db: deps.db, clock: deps.clock });
}
