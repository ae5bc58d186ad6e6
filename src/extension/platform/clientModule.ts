// The service client (undici, the zod schemas of the responses) is loaded on its first use, not
// when the extension activates: nothing at activation needs it. The build makes it a file of its
// own (dist/client.js, see esbuild.js), which this require loads; run from source (the unit tests)
// it is the module itself.
import type * as Client from '../../client';

let loaded: typeof Client | undefined;

/** The client module, loaded once, on first call. */
export function clientModule(): typeof Client {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('../../client') as typeof Client;
  return loaded;
}
