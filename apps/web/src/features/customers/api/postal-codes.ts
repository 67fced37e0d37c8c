import type { PostalCodeLookupResponse, PostalCountry } from '@vetcall/shared/schemas/postal-code';
import { apiRequest } from '../../../lib/api-client';

/** GET /api/postalcodes/{country}/{code}: city, state and address of a postal code. */
export function lookupPostalCode(country: PostalCountry, code: string): Promise<PostalCodeLookupResponse> {
  return apiRequest(`/api/postalcodes/${country}/${encodeURIComponent(code)}`, { auth: false });
}
