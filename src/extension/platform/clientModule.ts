// The service client (undici, the zod schemas of the responses) is loaded on its first use, not
// when the extension activates: nothing at activation needs it. The build makes it a file of its
// own (dist/client.js, see esbuild.js), which this require loads; run from source (the unit tests)
// it is the module itself.
//
// A bundle that cannot be loaded (missing after a partial update, quarantined, cut short) is tried
// once: the error is logged once, and every use then throws ClientLoadError, whose message tells
// the user that AI Chat is damaged and needs a reload or a reinstall (no module error, no stack).
import type * as Client from '../../client';
import { EXTENSION_DAMAGED, extensionDamagedText } from '../../core/chat/errors';
import type { Logger } from './log';

/** A part of the extension could not be loaded; `loadError` is why (for the log only). */
export class ClientLoadError extends Error {
  readonly code = EXTENSION_DAMAGED;
  constructor(readonly loadError: unknown) {
    super(extensionDamagedText());
    this.name = 'ClientLoadError';
  }
}

/** A module loaded once, on first use; a load that failed is not tried again. */
export class ModuleLoader<T> {
  private loaded: T | undefined;
  private failure: ClientLoadError | undefined;
  private logged = false;

  constructor(private readonly load: () => T) {}

  /**
   * The module. Throws ClientLoadError when it could not be loaded, then and on every later call;
   * the load error goes to the first logger given after it happened, once.
   */
  get(logger?: Pick<Logger, 'error'>): T {
    if (this.loaded !== undefined) return this.loaded;
    if (!this.failure) {
      try {
        this.loaded = this.load();
        return this.loaded;
      } catch (err) {
        this.failure = new ClientLoadError(err);
      }
    }
    if (logger && !this.logged) {
      this.logged = true;
      const cause = this.failure.loadError;
      const code = (cause as { code?: unknown } | undefined)?.code;
      logger.error('AI Chat is damaged: its service client (dist/client.js) could not be loaded; a reload or a reinstall is needed', {
        cause: cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause),
        ...(typeof code === 'string' ? { code } : {}),
      });
    }
    throw this.failure;
  }
}

/** The client bundle, shared by every caller. */
// eslint-disable-next-line @typescript-eslint/no-require-imports
export const clientBundle = new ModuleLoader<typeof Client>(() => require('../../client') as typeof Client);

/** The client module, loaded once, on first call (see ModuleLoader.get for a bundle that cannot be loaded). */
export function clientModule(logger?: Pick<Logger, 'error'>): typeof Client {
  return clientBundle.get(logger);
}
