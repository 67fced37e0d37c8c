/** What the authorisation page needs to know about the vet and the round trip. */
export interface CalendarAuthorizeRequest {
  /** docs/product-rules.md#calendar-callback state: `vet_id:<id> lang:<lang> access:<access>`. */
  state: string;
  /** The vet's email, offered to the provider's login page. */
  loginHint: string;
}

export type AccountTokenVerdict = 'valid' | 'invalid';

/**
 * Links a vet's calendar (docs/product-rules.md#calendar-callback, #api): builds the URL the browser goes to, and
 * checks the account token that comes back before it is stored. A provider that cannot answer throws
 * CalendarProviderUnavailable; a token it refuses is 'invalid'.
 */
export interface CalendarLinkProvider {
  readonly kind: 'builtin' | 'aurinko';
  authorizeUrl(request: CalendarAuthorizeRequest): string;
  verifyAccountToken(token: string, vet: { userId: number }): Promise<AccountTokenVerdict>;
}

/** The provider could not be asked: network error, timeout, 5xx or an unexpected answer. */
export class CalendarProviderUnavailable extends Error {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super(message, options);
    this.name = 'CalendarProviderUnavailable';
  }
}

/** The query of an authorisation URL, the same for every provider (docs/product-rules.md#api). */
export function authorizeQuery(options: {
  clientId: string;
  serviceType: string;
  publicUrl: string;
  request: CalendarAuthorizeRequest;
}): URLSearchParams {
  return new URLSearchParams({
    clientId: options.clientId,
    serviceType: options.serviceType,
    scopes: 'Calendar.ReadWrite',
    responseType: 'token',
    returnUrl: `${options.publicUrl}/auth/callback`,
    state: options.request.state,
    loginHint: options.request.loginHint,
  });
}
