import { runtimeConfigSchema, type RuntimeConfig } from '@latchkey/contracts';

/** GET /api/config: what this deployment tells the console at run time. */
export async function fetchRuntimeConfig(): Promise<RuntimeConfig> {
  const response = await fetch('/api/config', {
    credentials: 'include',
    headers: { Accept: 'application/json' },
  });
  if (!response.ok) throw new Error(`${response.status}: ${response.statusText}`);
  return runtimeConfigSchema.parse(await response.json());
}
