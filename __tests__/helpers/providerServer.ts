/**
 * The local provider server for a test file, the one way tests set it up: started before the file's
 * tests, reset before each (recorded requests, faults, caches), closed after.
 *
 * ```ts
 * let server: ProviderServer;
 * useProviderServer((s) => (server = s), { apiKey: 'sk-test' });
 * ```
 */
import { startProviderServer, type ProviderServer, type ProviderServerOptions } from '../../testing/providerServer';

export interface UseProviderServerOptions extends ProviderServerOptions {
  /** Reset the server before each test (default true); false when the tests build on each other's state. */
  resetEachTest?: boolean;
}

/** A clock stopped at one instant: `created` timestamps and cache lifetimes the same on every run. */
export const FIXED_CLOCK = (): number => 1_700_000_000_000;

export function useProviderServer(receive: (server: ProviderServer) => void, options: UseProviderServerOptions = {}): void {
  const { resetEachTest = true, ...serverOptions } = options;
  let server: ProviderServer | null = null;
  beforeAll(async () => {
    server = await startProviderServer(serverOptions);
    receive(server);
  });
  afterAll(async () => {
    await server?.close();
  });
  if (resetEachTest) beforeEach(() => server?.reset());
}
