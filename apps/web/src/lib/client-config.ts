import { type z } from 'zod';
import { clientConfigSchema } from '@vetcall/shared/schemas/client-config';

export type ClientConfig = z.infer<typeof clientConfigSchema>;

let loaded: ClientConfig | undefined;

export async function loadClientConfig(): Promise<ClientConfig> {
  const response = await fetch('/api/client-config', { headers: { accept: 'application/json' } });
  if (!response.ok) throw new Error(`client config: HTTP ${response.status}`);
  loaded = clientConfigSchema.parse(await response.json());
  return loaded;
}

/** The server's public settings, loaded once before the app mounts. */
export function clientConfig(): ClientConfig {
  if (!loaded) throw new Error('client config used before it was loaded');
  return loaded;
}
