import {
  type AccountTokenVerdict,
  authorizeQuery,
  type CalendarLinkProvider,
  CalendarProviderUnavailable,
} from './calendar-link-provider.ts';

/** The limit on one call to Aurinko, body included. */
export const AURINKO_TIMEOUT_MS = 5000;

export interface AurinkoSettings {
  /** Aurinko's API origin without a trailing slash (AURINKO_URL). */
  baseUrl: string;
  clientId: string;
  serviceType: string;
  /** The product's own address: the browser comes back to its /auth/callback. */
  publicUrl: string;
  /** Defaults to AURINKO_TIMEOUT_MS; tests pass a short one. */
  timeoutMs?: number;
}

/**
 * Aurinko (https://docs.aurinko.io): its Account OAuth flow with responseType=token hands the account
 * token to /auth/callback; GET /v1/account with that token as a bearer tells whether it is good.
 */
export function createAurinkoCalendarProvider(settings: AurinkoSettings): CalendarLinkProvider {
  return {
    kind: 'aurinko',
    authorizeUrl(request) {
      const query = authorizeQuery({ ...settings, request });
      return `${settings.baseUrl}/v1/auth/authorize?${query.toString()}`;
    },
    verifyAccountToken: (token) => verifyAurinkoAccountToken(settings, token),
  };
}

/**
 * 200 means Aurinko knows the account; 401 and 403 mean it refuses the token. Anything else (network
 * error, timeout, 5xx, another status) says nothing about the token: CalendarProviderUnavailable.
 * Messages never carry the token.
 */
export async function verifyAurinkoAccountToken(
  settings: Pick<AurinkoSettings, 'baseUrl' | 'timeoutMs'>,
  token: string,
): Promise<AccountTokenVerdict> {
  const timeoutMs = settings.timeoutMs ?? AURINKO_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  let status: number;
  try {
    const response = await fetch(`${settings.baseUrl}/v1/account`, {
      signal,
      redirect: 'error',
      headers: { accept: 'application/json', authorization: `Bearer ${token}` },
    });
    status = response.status;
    // The body is read (within the timeout) so the connection is freed; only the status matters.
    await response.arrayBuffer();
  } catch (error) {
    const reason = signal.aborted ? `no answer within ${timeoutMs} ms` : 'unreachable';
    throw new CalendarProviderUnavailable(`Aurinko: ${reason}`, { cause: error });
  }
  if (status === 200) return 'valid';
  if (status === 401 || status === 403) return 'invalid';
  throw new CalendarProviderUnavailable(`Aurinko: GET /v1/account answered HTTP ${status}`);
}
