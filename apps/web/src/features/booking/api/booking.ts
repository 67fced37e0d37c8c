import { useQuery } from '@tanstack/react-query';
import type { Locale } from '@vetcall/shared/locales';
import type { AppointmentCreated, AppointmentData, Quote } from '@vetcall/shared/schemas/booking';
import { apiRequest, apiUpload } from '../../../lib/api-client';
import { REFETCH_ON_RETURN } from '../../../lib/fresh-lists';

export const VETS_ON_DATE_KEY = ['booking', 'vets-on'] as const;

/** GET /api/vets/withavailability/{yyyymmdd}?tz: user ids of the vets with a free slot that date. */
export function useVetsAvailableOn(date: string | null, tz: string) {
  return useQuery({
    queryKey: [...VETS_ON_DATE_KEY, date, tz],
    queryFn: () =>
      apiRequest<number[]>(`/api/vets/withavailability/${date!.replaceAll('-', '')}?tz=${encodeURIComponent(tz)}`),
    enabled: date !== null,
    ...REFETCH_ON_RETURN,
  });
}

/** GET /api/appointments/quote: the price before paying (the server computes it again when booking). */
export function useQuote(vetUserId: number | null, accessCode: string) {
  return useQuery({
    queryKey: ['booking', 'quote', vetUserId, accessCode],
    queryFn: () => {
      const query = new URLSearchParams({ vet_user_id: String(vetUserId) });
      if (accessCode) query.set('access_code', accessCode);
      return apiRequest<Quote>(`/api/appointments/quote?${query.toString()}`);
    },
    enabled: vetUserId !== null,
  });
}

/** POST /api/appointments (docs/product-rules.md#api): multipart appointment_data (JSON) and files[]. */
export function createAppointment(data: AppointmentData, files: readonly File[]) {
  const form = new FormData();
  form.append('appointment_data', JSON.stringify(data));
  for (const file of files) form.append('files[]', file, file.name);
  return apiUpload<AppointmentCreated>('/api/appointments', form);
}

/**
 * docs/product-rules.md#api Payment: a browser form POST to /api/payment/{locale}; the server answers 303 to the
 * payment page (or to Request Confirmed when an included code made it free). The page is left for good.
 */
export function submitPaymentForm(
  locale: Locale,
  fields: {
    payment_hash: string;
    payment_email: string;
    customer_user_id: number;
    auth_token: string;
    ga_client_id: string;
    appointment_included: boolean;
  },
) {
  const form = document.createElement('form');
  form.method = 'POST';
  form.action = `/api/payment/${locale}`;
  form.hidden = true;
  const values: Record<string, string> = {
    ...fields,
    customer_user_id: String(fields.customer_user_id),
    appointment_included: fields.appointment_included ? '1' : '0',
  };
  for (const [name, value] of Object.entries(values)) {
    const input = document.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  document.body.append(form);
  form.submit();
}
